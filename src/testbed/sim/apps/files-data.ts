import { BASE_DIRS, normalizePath } from '../engine/services.js';
import type { World } from '../world.js';
import { hashString } from '../world-seed.js';

/**
 * What the Files app shows, read straight from the sdcard map adb sync and `adb shell ls` use: a
 * folder's entries (subfolders, then files newest first), sizes as Android formats them, dates in
 * the phone's locale. `seedDownloads` fills Downloads with 150 files of confusable names for the
 * delete tasks; sizes and times come from each name's hash, so a checker can rebuild every file.
 */

export const DOWNLOADS = '/sdcard/Download';
/** Seeded files' times sit before the virtual clock's default start (1_700_000_000_000). */
export const SEED_TIME = 1_700_000_000_000;
const DAY = 86_400_000;

const STEMS = [
  'invoice',
  'receipt',
  'statement',
  'report',
  'contract',
  'ticket',
  'resume',
  'budget',
  'minutes',
  'itinerary',
];
/** Variants of one stem that differ by a suffix, a copy number, a year or the extension. */
const VARIANTS = [
  (s: string) => `${s}.pdf`,
  (s: string) => `${s} (1).pdf`,
  (s: string) => `${s} (2).pdf`,
  (s: string) => `${s}_2023.pdf`,
  (s: string) => `${s}_2024.pdf`,
  (s: string) => `${s}_2024-01.pdf`,
  (s: string) => `${s}_2024-10.pdf`,
  (s: string) => `${s}_final.pdf`,
  (s: string) => `${s}_final (1).pdf`,
  (s: string) => `${s}-copy.pdf`,
  (s: string) => `${s}_scan.pdf`,
  (s: string) => `${s}.docx`,
  (s: string) => `${s}_v2.docx`,
  (s: string) => `${s}.jpg`,
];
const ZH_NAMES = [
  '旧发票.pdf',
  '旧发票 (1).pdf',
  '旧发票.jpg',
  '新发票.pdf',
  '发票.pdf',
  '发票_2024.pdf',
  '合同.pdf',
  '合同_最终版.pdf',
  '报告.docx',
  '旧报告.docx',
];

/** The 150 seeded names of Downloads: 140 English (10 stems × 14 variants) and 10 Chinese. */
export const DOWNLOAD_NAMES: readonly string[] = [...STEMS.flatMap((s) => VARIANTS.map((v) => v(s))), ...ZH_NAMES];

/** A seeded file's contents: its name, then filler up to a size between 1 kB and 120 kB (kept small: every phone holds them). */
export function seededContent(name: string): Buffer {
  const h = hashString(name);
  const size = 1_000 + (h % 119_000);
  const head = Buffer.from(`${name}\n`);
  const buf = Buffer.alloc(Math.max(size, head.length), 0x20);
  head.copy(buf);
  return buf;
}

export function seededTime(name: string): number {
  const h = hashString(`t:${name}`);
  return SEED_TIME - (h % (400 * DAY));
}

/** Puts the 150 files into Downloads (and their times), next to whatever is there already. */
export function seedDownloads(world: World): void {
  for (const name of DOWNLOAD_NAMES) {
    const path = `${DOWNLOADS}/${name}`;
    world.files.set(path, seededContent(name));
    world.fileTimes.set(path, seededTime(name));
  }
}

export interface FileEntry {
  path: string;
  name: string;
  dir: boolean;
  size: number;
  at: number;
}

/** A folder's entries: subfolders (by name), then files (newest first, then by name). */
export function listFolder(world: World, folder: string): FileEntry[] {
  const dir = normalizePath(folder);
  const prefix = dir === '/' ? '/' : `${dir}/`;
  const dirs = new Set<string>();
  // Standard folders exist even when empty, as `adb shell ls` shows them.
  for (const d of BASE_DIRS)
    if (d.startsWith(prefix) && d !== dir) dirs.add(d.slice(prefix.length).split('/')[0] ?? '');
  const files: FileEntry[] = [];
  for (const [path, data] of world.files) {
    if (!path.startsWith(prefix)) continue;
    const rest = path.slice(prefix.length);
    const slash = rest.indexOf('/');
    if (slash >= 0) dirs.add(rest.slice(0, slash));
    else files.push({ path, name: rest, dir: false, size: data.length, at: world.fileTimes.get(path) ?? SEED_TIME });
  }
  dirs.delete('');
  const folders: FileEntry[] = [...dirs]
    .sort((a, b) => a.localeCompare(b))
    .map((name) => ({ path: `${prefix}${name}`, name, dir: true, size: 0, at: SEED_TIME }));
  files.sort((a, b) => b.at - a.at || a.name.localeCompare(b.name));
  return [...folders, ...files];
}

/** Android's short file size (SI units since Android 8): "900 B", "12 kB", "1.2 MB". */
export function formatSize(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  const units = ['kB', 'MB', 'GB'];
  let v = bytes / 1000;
  let u = 0;
  while (v >= 1000 && u < units.length - 1) {
    v /= 1000;
    u++;
  }
  return `${v < 10 ? v.toFixed(1).replace(/\.0$/, '') : Math.round(v)} ${units[u]}`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "Nov 14, 2023" / "2023年11月14日" (UTC, as the status bar's clock). */
export function formatDate(at: number, zh: boolean): string {
  const d = new Date(at);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  const day = d.getUTCDate();
  return zh ? `${y}年${m + 1}月${day}日` : `${MONTHS[m]} ${day}, ${y}`;
}

/** Removes files (and their times) from the sdcard; returns the paths that existed. */
export function deleteFiles(world: World, paths: readonly string[]): string[] {
  const gone: string[] = [];
  for (const p of paths) {
    if (world.files.delete(p)) gone.push(p);
    world.fileTimes.delete(p);
  }
  return gone;
}
