import { perceive } from '../../src/perception/perceive.js';
import { VirtualPhone } from '../../src/testbed/sim/phone.js';

/**
 * Seeded mutation fuzzing of uiautomator dumps through the whole perception path (`perceive` with
 * an XML input, as `phone-agent observe --xml` and the ADB backend use it). Every case must end in a
 * value — an observation or a typed `INVALID_ARGUMENT` with a bounded message — never a throw, and
 * never take long. Shared by the unit test (a few thousand small cases) and `npm run bench:fuzz`.
 */

export type Rng = () => number;

/** mulberry32: small, fast, and the same sequence for the same seed on every machine. */
export function rng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const int = (r: Rng, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
const pick = <T>(r: Rng, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;

/** Where `<hierarchy …>` ends, so inserted nodes land inside the document. */
function bodyStart(xml: string): number {
  const h = xml.indexOf('<hierarchy');
  const gt = h < 0 ? -1 : xml.indexOf('>', h);
  return gt < 0 ? 0 : gt + 1;
}

function insertAt(xml: string, at: number, text: string): string {
  return xml.slice(0, at) + text + xml.slice(at);
}

/** Positions of every `bounds="…"` value. */
function boundsSpans(xml: string): [number, number][] {
  const out: [number, number][] = [];
  const re = /bounds="([^"]*)"/g;
  for (let m = re.exec(xml); m; m = re.exec(xml)) out.push([m.index + 8, m.index + 8 + (m[1]?.length ?? 0)]);
  return out;
}

function replaceBounds(r: Rng, xml: string, value: () => string, share: number): string {
  let out = '';
  let last = 0;
  for (const [a, b] of boundsSpans(xml)) {
    if (r() >= share) continue;
    out += xml.slice(last, a) + value();
    last = b;
  }
  return out + xml.slice(last);
}

const HOSTILE = '<>"\'&/=;#x\u0000\n\r\t[],-0123456789 ?!]]>';
const EXOTIC = ['\uD800', '\uDFFF', '\u202E', '\u200B', '😀', '\uFFFE', '密码', '\u0085'];
const ENTITIES = ['&#x110000;', '&#99999999999;', '&amp;amp;', '&', '&#;', '&#x;', '&bogus;', '&#0;', '&lt;node&gt;'];

/**
 * Each mutation takes a seed dump and a size budget (the largest input it may produce) and returns
 * the mutated text. Names are reported per mutation.
 */
export const MUTATIONS: Record<string, (r: Rng, xml: string, maxChars: number) => string> = {
  nest: (r, xml, max) => {
    // Half within the depth limit (walked by every later stage), half beyond it (refused).
    const d = Math.min(r() < 0.5 ? int(r, 50, 511) : int(r, 512, 8_000), Math.floor(max / 33));
    const open = '<node bounds="[0,0][10,10]">'.repeat(d);
    return insertAt(xml, bodyStart(xml), `${open}${'</node>'.repeat(d)}`);
  },
  'nest-unclosed': (r, xml, max) => {
    const d = Math.min(int(r, 100, 8_000), Math.floor(max / 24));
    return insertAt(xml, bodyStart(xml), '<node bounds="[0,0][1,1]">'.repeat(d));
  },
  'hierarchy-repeat': (r, _xml, max) => `${r() < 0.5 ? 'noise ' : ''}${'<hierarchy '.repeat(int(r, 1, max / 11))}`,
  truncate: (r, xml) => xml.slice(0, int(r, 0, xml.length)),
  'byte-flip': (r, xml) => {
    const chars = [...xml];
    for (let k = int(r, 1, 20); k > 0; k--) chars[int(r, 0, chars.length - 1)] = pick(r, [...HOSTILE]);
    return chars.join('');
  },
  'splice-dup': (r, xml, max) => {
    const a = int(r, 0, xml.length - 1);
    const piece = xml.slice(a, a + int(r, 1, 2_000));
    const times = Math.min(int(r, 2, 2_000), Math.floor(max / Math.max(1, piece.length)));
    return insertAt(xml, int(r, 0, xml.length), piece.repeat(Math.max(1, times)));
  },
  'huge-attr': (r, xml, max) => {
    // One to three values, together filling what is left of the budget.
    const spans = boundsSpans(xml);
    if (spans.length === 0) return xml;
    const k = int(r, 1, 3);
    const size = Math.max(1_000, Math.floor((max - xml.length) / k));
    const filler = pick(r, ['9', '[', '-', 'a', ' ', '&amp;', ',']).repeat(size).slice(0, size);
    const chosen = new Set(Array.from({ length: k }, () => int(r, 0, spans.length - 1)));
    let out = '';
    let last = 0;
    spans.forEach(([a, b], i) => {
      if (!chosen.has(i)) return;
      out += xml.slice(last, a) + filler;
      last = b;
    });
    return out + xml.slice(last);
  },
  'bounds-impossible': (r, xml) =>
    replaceBounds(
      r,
      xml,
      () =>
        pick(r, [
          '[9,9][1,1]',
          '[-5,-5][-1,-1]',
          '[-100,0][50,50]',
          `[0,0][${'9'.repeat(30)},1]`,
          '[0,0][0,0]',
          '[2147483648,0][2147483649,5]',
        ]),
      0.3,
    ),
  'bounds-malformed': (r, xml) =>
    replaceBounds(r, xml, () => pick(r, ['[1,2][3]', '[]', '', '[1.5,2][3,4]', '[0,0][1,1]x', ' [0,0][1,1] ']), 0.01),
  entities: (r, xml) => xml.replace(/text="/g, (m) => (r() < 0.3 ? `${m}${pick(r, ENTITIES)}${pick(r, ENTITIES)}` : m)),
  'attr-dup': (r, xml) => xml.replace(/ class="/g, (m) => (r() < 0.1 ? ` class="dup"${m}` : m)),
  'attr-flood': (r, xml, max) => {
    const n = Math.min(int(r, 100, 20_000), Math.floor(max / 12));
    const attrs = Array.from({ length: n }, (_v, i) => ` a${i}="${i}"`).join('');
    return xml.replace('<node ', `<node${attrs} `);
  },
  'shell-noise': (r, xml) =>
    `${pick(r, ['', 'WARNING: linker: unused DT entry\n', 'ERROR: null root node returned by UiTestAutomationBridge.\n'])}${xml}${pick(r, ['', '\nUI hierchary dumped to: /dev/tty', '\0\0\0', '</hierarchy>'])}`,
  comments: (r, xml) =>
    insertAt(
      xml,
      int(r, 0, xml.length),
      pick(r, ['<!--', '<!-- x -->'.repeat(500), '<![CDATA[', '<?pi', '<!DOCTYPE x [']),
    ),
  'drop-close': (r, xml) => xml.replace(/<\/node>/g, (m) => (r() < 0.05 ? '' : m)),
  'quote-swap': (r, xml) => xml.replace(/"/g, (m) => (r() < 0.01 ? "'" : m)),
  unicode: (r, xml) => xml.replace(/text="/g, (m) => (r() < 0.3 ? `${m}${pick(r, EXOTIC).repeat(int(r, 1, 50))}` : m)),
  'wide-tree': (r, xml, max) => {
    const leaf = '<node class="android.widget.TextView" text="row" clickable="true" bounds="[0,100][1080,200]" />';
    const n = Math.min(int(r, 100, 30_000), Math.floor(max / leaf.length));
    const i = xml.lastIndexOf('</node>');
    return insertAt(xml, i < 0 ? bodyStart(xml) : i, leaf.repeat(n));
  },
  rotation: (r, xml) =>
    xml.replace(/rotation="\d"/, `rotation="${pick(r, ['-1', '4', '1e9', 'x'.repeat(5_000), ''])}"`),
};

/** Mutations whose whole point is size (depth, repetition): they get `deepChars`. */
const DEEP = new Set(['nest', 'nest-unclosed', 'hierarchy-repeat']);

export interface FuzzOptions {
  seeds: string[];
  cases: number;
  seed: number;
  /** Largest input a mutation may produce (characters). */
  maxChars: number;
  /** The budget of the depth and repetition mutations (4,000 levels need ~130 KB). */
  deepChars: number;
  /**
   * A case that costs more CPU than this counts as a hang (ms). CPU time, not wall time: on a
   * shared machine a case waits for a core too, and that wait says nothing about perception.
   */
  hangMs: number;
}

export interface MutationStats {
  cases: number;
  observed: number;
  rejected: number;
  crashes: number;
  hangs: number;
  maxMs: number;
  maxCpuMs: number;
}

export interface FuzzReport {
  cases: number;
  observed: number;
  rejected: number;
  crashes: { mutation: string; seed: number; error: string }[];
  hangs: { mutation: string; seed: number; ms: number; cpuMs: number; chars: number }[];
  /** Wall time per case (includes waiting for a core on a busy machine). */
  maxMs: number;
  p99Ms: number;
  /** CPU time per case (user + system, all of the process's threads: GC included). */
  maxCpuMs: number;
  p99CpuMs: number;
  /** Cases over `hangMs` of wall time (not hangs: see maxCpuMs). */
  slowWall: number;
  /** Longest error message returned (characters). */
  maxMessage: number;
  maxInputChars: number;
  /** Highest heap in use seen after a case, MB. */
  peakHeapMb: number;
  byMutation: Record<string, MutationStats>;
}

export async function runFuzz(opts: FuzzOptions): Promise<FuzzReport> {
  const names = Object.keys(MUTATIONS);
  const report: FuzzReport = {
    cases: 0,
    observed: 0,
    rejected: 0,
    crashes: [],
    hangs: [],
    maxMs: 0,
    p99Ms: 0,
    maxCpuMs: 0,
    p99CpuMs: 0,
    slowWall: 0,
    maxMessage: 0,
    maxInputChars: 0,
    peakHeapMb: 0,
    byMutation: Object.fromEntries(
      names.map((n) => [n, { cases: 0, observed: 0, rejected: 0, crashes: 0, hangs: 0, maxMs: 0, maxCpuMs: 0 }]),
    ),
  };
  const times: number[] = [];
  const cpuTimes: number[] = [];
  for (let k = 0; k < opts.cases; k++) {
    const caseSeed = opts.seed * 100_003 + k;
    const r = rng(caseSeed);
    const mutation = names[k % names.length] as string;
    const base = pick(r, opts.seeds);
    const budget = DEEP.has(mutation) ? opts.deepChars : opts.maxChars;
    const input = MUTATIONS[mutation]?.(r, base, budget) ?? base;
    const stats = report.byMutation[mutation] as MutationStats;
    stats.cases++;
    report.cases++;
    report.maxInputChars = Math.max(report.maxInputChars, input.length);
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    try {
      const out = await perceive({ xml: input });
      if (out.ok) {
        stats.observed++;
        report.observed++;
      } else {
        stats.rejected++;
        report.rejected++;
        report.maxMessage = Math.max(report.maxMessage, out.message.length);
      }
    } catch (e) {
      stats.crashes++;
      const error = e instanceof Error ? `${e.name}: ${e.message}`.slice(0, 200) : String(e).slice(0, 200);
      report.crashes.push({ mutation, seed: caseSeed, error });
    }
    const ms = performance.now() - t0;
    const used = process.cpuUsage(c0);
    const cpuMs = (used.user + used.system) / 1000;
    times.push(ms);
    cpuTimes.push(cpuMs);
    stats.maxMs = Math.max(stats.maxMs, ms);
    stats.maxCpuMs = Math.max(stats.maxCpuMs, cpuMs);
    if (ms > opts.hangMs) report.slowWall++;
    if (cpuMs > opts.hangMs) {
      stats.hangs++;
      report.hangs.push({
        mutation,
        seed: caseSeed,
        ms: Math.round(ms),
        cpuMs: Math.round(cpuMs),
        chars: input.length,
      });
    }
    if (k % 50 === 0) report.peakHeapMb = Math.max(report.peakHeapMb, process.memoryUsage().heapUsed / 2 ** 20);
  }
  report.hangs.sort((a, b) => b.ms - a.ms);
  times.sort((a, b) => a - b);
  report.maxMs = times[times.length - 1] ?? 0;
  report.p99Ms = times[Math.floor(times.length * 0.99)] ?? 0;
  cpuTimes.sort((a, b) => a - b);
  report.maxCpuMs = cpuTimes[cpuTimes.length - 1] ?? 0;
  report.p99CpuMs = cpuTimes[Math.floor(cpuTimes.length * 0.99)] ?? 0;
  return report;
}

/** Dumps the project makes itself: the virtual phone's screens as `uiautomator dump` writes them. */
export async function phoneDumps(): Promise<string[]> {
  const phone = new VirtualPhone({ seed: 5 });
  const out = [await phone.dumpXml()];
  for (const app of phone.packages().slice(0, 12)) {
    const r = await phone.launch(app.package);
    if (!r.ok) continue;
    await phone.clock.sleep(1_200);
    out.push(await phone.dumpXml());
  }
  return out;
}
