import { rectCenter } from '../../src/core/geometry.js';
import type { Element, Observation } from '../../src/core/types.js';
import { type PerceiveOptions, type PerceiveResult, perceive } from '../../src/perception/perceive.js';
import { VirtualPhone } from '../../src/testbed/sim/index.js';

/**
 * Drives the virtual phone through its public surface and perceives what it shows: the tree from
 * `readTree` (helper JSON) or `dumpXml` (uiautomator), the PNG from `screenshot`.
 */

export type Perceived = Extract<PerceiveResult, { ok: true }>;

export function newPhone(): VirtualPhone {
  return new VirtualPhone({ seed: 7 });
}

export async function look(
  phone: VirtualPhone,
  opts: PerceiveOptions & { screenshot?: boolean } = {},
): Promise<Perceived> {
  const snap = await phone.readTree();
  const shot = opts.screenshot === false ? undefined : await phone.screenshot();
  const r = await perceive({ wire: snap, screenshot: shot?.png, screenshotSeq: shot?.seq }, opts);
  if (!r.ok) throw new Error(r.message);
  return r;
}

export async function lookXml(phone: VirtualPhone, opts: PerceiveOptions = {}): Promise<Perceived> {
  const xml = await phone.dumpXml();
  const s = phone.screen();
  const r = await perceive({ xml, screen: { w: s.width, h: s.height, rotation: s.rotation } }, opts);
  if (!r.ok) throw new Error(r.message);
  return r;
}

export function byLabel(o: Observation, label: string | RegExp): Element {
  const test = (s: string) => (typeof label === 'string' ? s === label : label.test(s));
  const e = o.elements.find((x) => x.actionable && test(x.label ?? ''));
  if (!e) {
    const seen = o.elements.filter((x) => x.actionable).map((x) => x.label);
    throw new Error(`no actionable element labelled ${String(label)}; seen: ${seen.join(' | ')}`);
  }
  return e;
}

/** Taps an element's centre the way the executor would (pixels from the element's bounds). */
export async function tapElement(phone: VirtualPhone, e: Element, settleMs = 800): Promise<void> {
  const c = rectCenter(e.boundsPx);
  const r = await phone.tap(Math.round(c.x), Math.round(c.y), 60);
  if (!r.ok) throw new Error(`tap failed: ${r.message}`);
  await phone.clock.sleep(settleMs);
}

/** Launch `pkg` (or `pkg/.Activity`, a page deep in the app) and let it settle. */
export async function open(phone: VirtualPhone, pkg: string, settleMs = 1500): Promise<void> {
  const [name = pkg, activity] = pkg.split('/');
  const r = await phone.launch(name, activity);
  if (!r.ok) throw new Error(`launch ${pkg}: ${r.message}`);
  await phone.clock.sleep(settleMs);
}

/** FoodShop's menu as it opens, with its first-run promotion dismissed ("Later"). */
export async function foodShopMenu(phone: VirtualPhone): Promise<Perceived> {
  await open(phone, 'com.foodshop');
  const r = await look(phone, { screenshot: false });
  const later = r.observation.elements.find((e) => e.actionable && /^Later/.test(e.label ?? ''));
  if (later) await tapElement(phone, later);
  return look(phone, { screenshot: false });
}

export function compactLines(compact: string): string[] {
  return compact.split('\n').filter((l) => l.startsWith('['));
}
