import { access } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { APK_PATH, HELPER_PACKAGE, run } from './tools/toolchain.js';

// Verifies what `npm run helper:build` produced (.ci/run builds first, then runs `npm run test:helper`):
// the signature, the manifest as Android's own tools read it, and the classes in the dex.
describe('the helper APK', () => {
  let badging = '';
  let classes: string[] = [];

  beforeAll(async () => {
    await access(APK_PATH).catch(() => {
      throw new Error(`${APK_PATH} is missing: run \`npm run helper:build\` first`);
    });
    badging = (await run('aapt', ['dump', 'badging', APK_PATH])).stdout;
    const dex = await run('dexdump', ['-h', APK_PATH], { maxBuffer: 64 * 1024 * 1024 });
    classes = [...dex.stdout.matchAll(/Class descriptor\s*: 'L([^;]+);'/g)].map((m) =>
      (m[1] ?? '').replaceAll('/', '.'),
    );
  }, 60_000);

  it('is signed and zip-aligned', async () => {
    const v = await run('apksigner', ['verify', '--verbose', APK_PATH]);
    expect(v.stdout).toMatch(/^Verifies$/m);
    expect(v.stdout).toMatch(/APK Signature Scheme v2\): true/);
    await run('zipalign', ['-c', '-p', '4', APK_PATH]); // throws when not aligned
  });

  it('declares the package, SDK levels, permissions and debuggable (for run-as)', () => {
    expect(badging).toMatch(new RegExp(`^package: name='${HELPER_PACKAGE.replaceAll('.', '\\.')}'`, 'm'));
    expect(badging).toMatch(/^sdkVersion:'26'$/m);
    expect(badging).toMatch(/^targetSdkVersion:'34'$/m);
    expect(badging).toMatch(/uses-permission: name='android.permission.INTERNET'/);
    expect(badging).toMatch(/^application-debuggable$/m);
  });

  it('provides the accessibility service and the input method', async () => {
    expect(badging).toMatch(/^provides-component:'accessibility'$/m);
    expect(badging).toMatch(/^provides-component:'ime'$/m);
    const xml = (await run('aapt', ['dump', 'xmltree', APK_PATH, 'AndroidManifest.xml'])).stdout;
    expect(xml).toContain('"dev.phoneagent.helper.HelperService"');
    expect(xml).toContain('"dev.phoneagent.helper.HelperIme"');
    expect(xml).toContain('"android.permission.BIND_ACCESSIBILITY_SERVICE"');
    expect(xml).toContain('"android.permission.BIND_INPUT_METHOD"');
    const a11y = (await run('aapt', ['dump', 'xmltree', APK_PATH, 'res/xml/accessibility_service.xml'])).stdout;
    for (const attr of ['canPerformGestures', 'canRetrieveWindowContent', 'canTakeScreenshot'])
      expect(a11y, `accessibility config lacks ${attr}`).toContain(attr);
  });

  it('has the service, the IME and the protocol core in its dex', () => {
    for (const c of [
      'dev.phoneagent.helper.HelperService',
      'dev.phoneagent.helper.HelperIme',
      'dev.phoneagent.helper.AndroidDevice',
      'dev.phoneagent.helper.core.Protocol',
      'dev.phoneagent.helper.core.HttpServer',
      'dev.phoneagent.helper.core.Engine',
    ])
      expect(classes).toContain(c);
    // The JVM-only runner and the tests stay out of the APK.
    expect(classes.some((c) => c.includes('.jvm.') || c.endsWith('TestMain'))).toBe(false);
  });
});
