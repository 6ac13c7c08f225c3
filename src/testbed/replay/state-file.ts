import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { ActionableError } from '../../core/errors.js';
import { type DroidbotImage, type DroidbotRead, readDroidbotState } from '../../perception/droidbot/state.js';

/**
 * A DroidBot state file from disk, with its screenshot (`screen_<tag>.png|jpg` beside it, as DroidBot
 * writes them), turned into a snapshot by perception's reader. Files that are not there or not a
 * state are an ActionableError naming the file.
 */

export interface StateFileOptions {
  /** Attach the screenshot's bytes to the snapshot (default true); its size is read either way. */
  imageBytes?: boolean;
  /** An explicit screenshot (else `screen_<tag>.*` next to the state, when there is one). */
  image?: string;
}

export interface LoadedState {
  read: Extract<DroidbotRead, { ok: true }>;
  /** The screenshot file used, when there was one. */
  imageFile?: string;
}

const IMAGE_EXT = ['.png', '.jpg', '.jpeg'];

export async function loadImage(file: string, withBytes: boolean): Promise<DroidbotImage> {
  const bytes = await readFile(file).catch((e: unknown) => {
    throw new ActionableError(
      'NOT_FOUND',
      `cannot read the screenshot ${file} (${(e as Error).message})`,
      'check the path',
    );
  });
  const meta = await sharp(bytes)
    .metadata()
    .catch((e: unknown) => {
      throw new ActionableError(
        'INVALID_ARGUMENT',
        `the screenshot ${file} is not an image (${(e as Error).message})`,
        'pass a PNG or JPEG',
      );
    });
  const format = meta.format === 'jpeg' ? 'jpeg' : 'png';
  const image: DroidbotImage = { width: meta.width ?? 0, height: meta.height ?? 0, format };
  if (withBytes) image.base64 = bytes.toString('base64');
  return image;
}

/** `screen_<tag>.<ext>` in the state's folder, when DroidBot wrote one. */
export async function screenshotBeside(stateFile: string, tag: string): Promise<string | undefined> {
  if (!tag) return undefined;
  const dir = path.dirname(stateFile);
  const names = new Set(await readdir(dir).catch(() => [] as string[]));
  for (const ext of IMAGE_EXT) if (names.has(`screen_${tag}${ext}`)) return path.join(dir, `screen_${tag}${ext}`);
  return undefined;
}

/** The recorded state files under `dir` whose path matches `pattern`, sorted (a graph's `states/*.json`). */
export async function statesUnder(dir: string, pattern: RegExp): Promise<string[]> {
  const out: string[] = [];
  const walk = async (d: string): Promise<void> => {
    for (const e of await readdir(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) await walk(p);
      else if (pattern.test(p)) out.push(p);
    }
  };
  await walk(dir);
  return out.sort();
}

export async function loadStateFile(file: string, opts: StateFileOptions = {}): Promise<LoadedState> {
  const text = await readFile(file, 'utf8').catch((e: unknown) => {
    throw new ActionableError(
      'NOT_FOUND',
      `cannot read the DroidBot state ${file} (${(e as Error).message})`,
      'check the path',
    );
  });
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new ActionableError(
      'INVALID_ARGUMENT',
      `${file} is not JSON (${(e as Error).message})`,
      'pass a DroidBot states/state_<tag>.json',
    );
  }
  const tag = typeof (json as { tag?: unknown })?.tag === 'string' ? (json as { tag: string }).tag : '';
  const imageFile = opts.image ?? (await screenshotBeside(file, tag));
  const image = imageFile ? await loadImage(imageFile, opts.imageBytes !== false) : undefined;
  const read = readDroidbotState(json, { image });
  if (!read.ok)
    throw new ActionableError(
      'INVALID_ARGUMENT',
      `${file}: ${read.message}`,
      'pass a DroidBot states/state_<tag>.json',
    );
  return { read, imageFile };
}
