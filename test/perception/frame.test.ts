import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { crossCheck } from '../../src/perception/crosscheck.js';
import {
  clampLongSide,
  detectMissingTop,
  FrameGate,
  hammingDistance,
  prepareFrame,
  SAME_FRAME_MAX_DISTANCE,
  sameFrame,
} from '../../src/perception/frame.js';
import { perceive } from '../../src/perception/perceive.js';
import { byLabel, look, newPhone, open, tapElement } from './phone.js';

describe('frame: downscale, blockhash, distance, gate', () => {
  it('downscales to 720 on the long side by default, 720–1080 when configured', async () => {
    const phone = newPhone();
    const shot = await phone.screenshot();
    const screen = { w: shot.width, h: shot.height };
    const f = await prepareFrame(shot.png, screen);
    expect(f.source).toEqual({ width: 1080, height: 2400 });
    expect(f.scaled.height).toBe(720);
    expect(f.scaled.width).toBe(324);
    expect(f.hash).toMatch(/^[0-9a-f]{64}$/);
    const big = await prepareFrame(shot.png, screen, { longSide: 1080 });
    expect(big.scaled.height).toBe(1080);
    expect(clampLongSide(100)).toBe(720);
    expect(clampLongSide(5000)).toBe(1080);
  });

  it('the same screen twice is the same frame; another page is not', async () => {
    const phone = newPhone();
    const a = await look(phone);
    const b = await look(phone);
    expect(a.observation.frameHash).toBe(b.observation.frameHash);
    await open(phone, 'com.android.settings');
    const c = await look(phone);
    const d = hammingDistance(a.observation.frameHash!, c.observation.frameHash!);
    expect(d).toBeGreaterThan(SAME_FRAME_MAX_DISTANCE);
    expect(sameFrame(a.observation.frameHash!, c.observation.frameHash!)).toBe(false);
  });

  it('a toggle flip barely moves the hash, while the tree sees it: the hash is never the only evidence', async () => {
    const phone = newPhone();
    await open(phone, 'com.android.settings/.BluetoothSettings');
    const before = await look(phone);
    await tapElement(phone, byLabel(before.observation, 'Use Bluetooth'));
    const after = await look(phone, { previous: before.observation });
    const d = hammingDistance(before.observation.frameHash!, after.observation.frameHash!);
    expect(d).toBeLessThan(32); // < 1/8 of the bits for a real, wanted change
    expect(byLabel(after.observation, 'Use Bluetooth').flags.checked).toBe(true);
    expect(after.observation.pageHash).toBe(before.observation.pageHash); // same page, different state
  });

  it('the gate skips unchanged frames, opens on change, and lets a slow drift accumulate', () => {
    const gate = new FrameGate(4);
    const base = '0'.repeat(64);
    const flip = (h: string, bits: number) => {
      const n = BigInt(`0x${h}`) ^ ((1n << BigInt(bits)) - 1n);
      return n.toString(16).padStart(64, '0');
    };
    expect(gate.check(base).skip).toBe(false);
    expect(gate.check(base)).toMatchObject({ skip: true, distance: 0, unchangedFrames: 1 });
    // Three bits per frame stays under the threshold frame-to-frame but not against the reference.
    expect(gate.check(flip(base, 3)).skip).toBe(true);
    expect(gate.check(flip(base, 6))).toMatchObject({ skip: false, distance: 6, unchangedFrames: 0 });
    gate.reset();
    expect(gate.check(base).skip).toBe(false);
  });

  it('a screenshot without the status bar is detected and corrected to full-screen coordinates', async () => {
    const phone = newPhone();
    await open(phone, 'com.android.settings');
    const full = await phone.screenshot();
    phone.faults.cropStatusBar = true;
    const cropped = await phone.screenshot();
    expect(cropped.height).toBeLessThan(full.height);
    const missing = full.height - cropped.height;
    expect(detectMissingTop({ width: cropped.width, height: cropped.height }, { w: 1080, h: 2400 })).toBe(missing);
    // Not a status bar: a half-height image is another problem, not corrected silently.
    expect(detectMissingTop({ width: 1080, height: 1200 }, { w: 1080, h: 2400 })).toBe(0);
    const snap = await phone.readTree();
    // The capture does not say it is cropped: perception finds out from the size.
    const r = await perceive({ wire: { ...snap, screenshot: undefined }, screenshot: cropped.png });
    if (!r.ok) throw new Error(r.message);
    expect(r.observation.screenshot).toMatchObject({ width: 1080, height: cropped.height, offsetY: missing });
    expect(r.frame?.offsetSource).toBe('detected');
    expect(r.frame?.scaled.height).toBe(720);
    expect(r.observation.notes?.join()).toMatch(/lacks the top/);
    // Corrected, the frame lines up with the tree: the text regions are not blank, so it is stable.
    expect(r.observation.unstable).toBeUndefined();
    const fullFrame = await prepareFrame(full.png, { w: 1080, h: 2400 });
    expect(hammingDistance(fullFrame.hash, r.frame!.hash)).toBeLessThan(24);
  });

  it('a malformed screenshot is a value, not a crash', async () => {
    const phone = newPhone();
    const snap = await phone.readTree();
    const r = await perceive({ wire: snap, screenshot: Buffer.from('not an image') });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toMatch(/screenshot: cannot decode/);
  });
});

describe('tree ↔ screenshot cross-check', () => {
  it('agreeing channels are stable', async () => {
    const phone = newPhone();
    await open(phone, 'com.android.settings');
    expect((await look(phone)).observation.unstable).toBeUndefined();
  });

  it('text the tree shows over a blank screenshot means mid-transition: wait a frame', async () => {
    const phone = newPhone();
    await open(phone, 'com.android.settings');
    const snap = await phone.readTree();
    const blank = await sharp({ create: { width: 1080, height: 2400, channels: 3, background: '#ffffff' } })
      .png()
      .toBuffer();
    const r = await perceive({ wire: snap, screenshot: blank });
    if (!r.ok) throw new Error(r.message);
    expect(r.observation.unstable).toMatch(/text regions are blank/);
    expect(r.compact.split('\n')[0]).toMatch(/unstable: /);
  });

  it('a screenshot from another screen revision than the tree is flagged', async () => {
    const phone = newPhone();
    const snap = await phone.readTree();
    const shot = await phone.screenshot();
    const r = await perceive({ wire: snap, screenshot: shot.png, screenshotSeq: snap.seq - 1 });
    if (!r.ok) throw new Error(r.message);
    expect(r.observation.unstable).toMatch(/different moments/);
    expect(crossCheck({ elements: [], treeSeq: 3, screenshotSeq: 3 })).toBeUndefined();
  });
});
