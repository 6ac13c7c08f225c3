import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { errorMessage } from '../../core/errors.js';

/**
 * The helper conformance suite (helper/conformance, the same checks the virtual phone, the JVM and
 * the Robolectric-hosted helper pass), loaded from the source checkout this CLI runs from: it is
 * not part of the built package, as the regression catalog is not.
 */

export interface ConformanceResult {
  name: string;
  status: 'pass' | 'fail';
  detail: string;
  ms: number;
}

interface Suite {
  runConformance(o: {
    url: string;
    token: string;
    onResult?: (r: ConformanceResult) => void;
  }): Promise<ConformanceResult[]>;
}

export const SUITE_FILE = path.resolve(import.meta.dirname, '..', '..', '..', 'helper', 'conformance', 'index.ts');

export async function runConformanceSuite(
  endpoint: { url: string; token: string },
  onResult: (r: ConformanceResult) => void,
): Promise<{ ok: true; results: ConformanceResult[] } | { ok: false; message: string }> {
  let suite: Suite;
  try {
    suite = (await import(pathToFileURL(SUITE_FILE).href)) as Suite;
  } catch (e) {
    return {
      ok: false,
      message: `cannot load the conformance suite ${SUITE_FILE} (${errorMessage(e)}): run verify-device from a source checkout (npm run phone-agent -- verify-device …)`,
    };
  }
  return { ok: true, results: await suite.runConformance({ ...endpoint, onResult }) };
}
