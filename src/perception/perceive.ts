import sharp from 'sharp';
import type { WireSnapshot } from '../core/snapshot.js';
import type { Observation } from '../core/types.js';
import { type CompactOptions, compactView } from './compact.js';
import { crossCheck } from './crosscheck.js';
import { type Frame, prepareFrame } from './frame.js';
import { observeTree, type TreeObserveOptions } from './observe-tree.js';
import { parseWireSnapshot, wireToTree } from './parse-wire.js';
import { parseUiautomatorXml } from './parse-xml.js';
import { slidersFromFrame } from './slider-frame.js';
import type { ScreenHint } from './space.js';
import type { ParseResult } from './tree.js';

/**
 * perceive: snapshot (tree + optional screenshot) → Observation. Pure apart from the image work it
 * hands to sharp; the same input always gives the same observation.
 */

export type SnapshotInput =
  | {
      /** A validated WireSnapshot, or anything to validate (JSON text, parsed object). */
      wire: WireSnapshot | unknown;
      /** PNG/JPEG; defaults to the snapshot's own base64 screenshot. */
      screenshot?: Buffer;
      /** Screen revision the screenshot was rendered at, when known. */
      screenshotSeq?: number;
      /** Rows missing at the top of `screenshot`, when the capture reports it. */
      screenshotOffsetY?: number;
    }
  | {
      xml: string;
      screen?: ScreenHint;
      foreground?: { package: string; activity: string };
      seq?: number;
      takenAt?: number;
      screenshot?: Buffer;
      /** Rows missing at the top of the screenshot, when the capture reports it. */
      screenshotOffsetY?: number;
      screenshotSeq?: number;
    };

export interface PerceiveOptions extends TreeObserveOptions {
  /** Long side of the frame used for hashing and for the LLM (720–1080). */
  longSide?: number;
  compact?: CompactOptions;
  /** Validate wire snapshots against the schema even when they look validated. */
  revalidate?: boolean;
}

export interface PerceiveTimings {
  parseMs: number;
  elementsMs: number;
  compactMs: number;
  /** Wall clock of the whole call (the frame overlaps the tree work). */
  totalMs: number;
  /** Screenshot decode (libvips, PNG → RGBA). */
  decodeMs?: number;
  /** Box downscale to the frame's long side. */
  downscaleMs?: number;
  hashMs?: number;
}

export type PerceiveResult =
  | { ok: true; observation: Observation; compact: string; frame?: Frame; timings: PerceiveTimings }
  | { ok: false; code: 'INVALID_ARGUMENT'; message: string };

function isValidatedWire(v: unknown): v is WireSnapshot {
  return typeof v === 'object' && v !== null && Array.isArray((v as { nodes?: unknown }).nodes) && 'screen' in v;
}

export async function perceive(input: SnapshotInput, opts: PerceiveOptions = {}): Promise<PerceiveResult> {
  const t0 = performance.now();
  let parsed: ParseResult;
  let screenshot: Buffer | undefined;
  let offsetY: number | undefined;
  let screenshotSeq: number | undefined;
  if ('wire' in input) {
    // Already-validated snapshots skip the schema pass (the device layer validated them).
    parsed = isValidatedWire(input.wire) && !opts.revalidate ? wireToTree(input.wire) : parseWireSnapshot(input.wire);
    const shot = isValidatedWire(input.wire) ? input.wire.screenshot : undefined;
    screenshot = input.screenshot ?? (shot ? Buffer.from(shot.base64, 'base64') : undefined);
    offsetY = input.screenshot ? input.screenshotOffsetY : shot?.offsetY;
    screenshotSeq = input.screenshotSeq ?? (input.screenshot ? undefined : shot?.seq);
  } else {
    parsed = parseUiautomatorXml(input.xml, {
      screen: input.screen,
      foreground: input.foreground,
      seq: input.seq,
      takenAt: input.takenAt,
    });
    screenshot = input.screenshot;
    offsetY = input.screenshotOffsetY;
    screenshotSeq = input.screenshotSeq;
  }
  if (!parsed.ok) return parsed;
  const tree = parsed.tree;
  const t1 = performance.now();

  // The PNG decode runs on libvips' threads while the tree is turned into elements here.
  let framePromise: Promise<Frame | Error> | undefined;
  if (screenshot) {
    const shot = screenshot;
    framePromise = (async () => {
      if (tree.screen.w === 0) {
        // An empty dump told us nothing about the screen: the screenshot's size is the best we have.
        const meta = await sharp(shot).metadata();
        tree.screen = { w: meta.width ?? 0, h: meta.height ?? 0, rotation: tree.screen.rotation, source: 'inferred' };
      }
      return prepareFrame(shot, tree.screen, { longSide: opts.longSide, offsetY });
    })().catch((e: unknown) => (e instanceof Error ? e : new Error(String(e))));
    // Without a screen size the tree cannot be normalized before the image answers.
    if (tree.screen.w === 0) await framePromise;
  }
  if (tree.screen.w === 0 || tree.screen.h === 0) {
    const f = await framePromise;
    if (f instanceof Error)
      return { ok: false, code: 'INVALID_ARGUMENT', message: `screenshot: cannot decode (${f.message})` };
    return {
      ok: false,
      code: 'INVALID_ARGUMENT',
      message: `the dump is empty (${tree.emptyReason ?? 'no nodes'}) and the screen size is unknown: pass the screen size or a screenshot`,
    };
  }
  const t2 = performance.now();
  const { observation } = observeTree(tree, opts);
  const tElements = performance.now();
  const frameOrError = await framePromise;
  if (frameOrError instanceof Error) {
    return { ok: false, code: 'INVALID_ARGUMENT', message: `screenshot: cannot decode (${frameOrError.message})` };
  }
  const frame = frameOrError;
  if (frame) {
    observation.frameHash = frame.hash;
    slidersFromFrame(observation, frame.scaled);
    observation.screenshot = { width: frame.source.width, height: frame.source.height };
    if (frame.offsetY > 0) {
      observation.screenshot.offsetY = frame.offsetY;
      const note = `screenshot lacks the top ${frame.offsetY} px (status bar); corrected (${frame.offsetSource})`;
      observation.notes = [...(observation.notes ?? []), note];
    }
  }
  const unstable = crossCheck({
    frame: frame?.scaled,
    elements: observation.elements,
    treeSeq: tree.seq,
    screenshotSeq,
    skipTop: frame && frame.offsetY > 0 ? Math.ceil((frame.offsetY / (frame.source.height + frame.offsetY)) * 1000) : 0,
  });
  if (unstable) observation.unstable = unstable;
  const t4 = performance.now();
  const compact = compactView(observation, opts.compact);
  const t5 = performance.now();
  return {
    ok: true,
    observation,
    compact,
    frame,
    timings: {
      parseMs: t1 - t0,
      elementsMs: tElements - t2,
      totalMs: t5 - t0,
      compactMs: t5 - t4,
      decodeMs: frame?.timings.decodeMs,
      downscaleMs: frame?.timings.downscaleMs,
      hashMs: frame?.timings.hashMs,
    },
  };
}
