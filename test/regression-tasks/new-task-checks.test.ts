import { describe, expect, it } from 'vitest';
import { instantiate } from '../../regression-tasks/harness.js';
import { TASKS } from '../../regression-tasks/index.js';
import type { Params, TaskDef } from '../../regression-tasks/types.js';
import { emptyResult } from '../../src/agent/session.js';
import type { RunResult, RunStatus } from '../../src/agent/types.js';
import { contactByName } from '../../src/testbed/sim/apps/contacts-data.js';
import {
  CATEGORIES,
  cheapestIn,
  displayName,
  foodShopData,
  type MenuItem,
  WALLETS,
} from '../../src/testbed/sim/apps/foodshop-menu.js';
import { messagingData } from '../../src/testbed/sim/apps/messages-data.js';
import { VirtualPhone } from '../../src/testbed/sim/index.js';
import type { CartLine, World } from '../../src/testbed/sim/world.js';

/**
 * The checks of SET-04, MSG-03, MSG-04, SHOP-03, SHOP-04 and SHOP-06 can fail: each accepts the
 * right end state and rejects the plausible wrong ones (older code, wrong item, wrong card, …).
 */

function task(id: string): TaskDef {
  const t = TASKS.find((x) => x.id === id);
  if (!t) throw new Error(`no task ${id}`);
  return t;
}

function run(status: RunStatus, answer?: string): RunResult {
  return { ...emptyResult('r', '', ''), status, answer, steps: 1 };
}

async function prepared(id: string, seed = 3): Promise<{ t: TaskDef; phone: VirtualPhone; p: Params }> {
  const t = task(id);
  const phone = new VirtualPhone({ seed, locale: t.locale ?? 'en' });
  const { params } = instantiate(t, seed);
  await t.setup?.(phone, params);
  return { t, phone, p: params };
}

async function verdict(t: TaskDef, phone: VirtualPhone, p: Params, r: RunResult) {
  return t.check(phone.world, r, p, phone);
}

function line(item: MenuItem, qty: number, size?: string): CartLine {
  return { itemId: item.id, name: displayName(item), size, options: [], qty, unitPrice: item.price };
}

function payOrder(w: World, lines: CartLine[], method: string, status: 'paid' | 'placed' = 'paid'): void {
  const id = 1001 + w.orders.length;
  w.orders.push({ id, lines, total: 1, status, at: 1 });
  if (status === 'paid') w.payments.push({ orderId: id, amount: 1, method, at: 1 });
}

describe('SET-04 (half credit each)', () => {
  it('scores 0, 0.5, 1 and needs both settings and done', async () => {
    const { t, phone, p } = await prepared('SET-04');
    const s = phone.world.settings;
    expect(await verdict(t, phone, p, run('done'))).toMatchObject({ ok: false, score: 0 });
    s.darkMode = true;
    expect(await verdict(t, phone, p, run('done'))).toMatchObject({ ok: false, score: 0.5 });
    s.bluetooth = false;
    expect(await verdict(t, phone, p, run('done'))).toEqual({ ok: true });
    expect((await verdict(t, phone, p, run('failed'))).ok).toBe(false);
    s.darkMode = false;
    expect(await verdict(t, phone, p, run('done'))).toMatchObject({ ok: false, score: 0.5 });
  });
});

describe('MSG-03', () => {
  it('accepts only the latest code of the named sender', async () => {
    for (const seed of [1, 2, 3]) {
      const { t, phone, p } = await prepared('MSG-03', seed);
      const { otp, distractor } = messagingData(phone.world);
      expect(otp.sender).toBe(p.sender);
      expect((await verdict(t, phone, p, run('done', otp.latest))).ok).toBe(true);
      expect((await verdict(t, phone, p, run('done', `${otp.latest}.`))).ok).toBe(true);
      expect((await verdict(t, phone, p, run('done', otp.older))).ok).toBe(false);
      expect((await verdict(t, phone, p, run('done', distractor.code))).ok).toBe(false);
      expect((await verdict(t, phone, p, run('done', `${otp.latest} or ${otp.older}`))).ok).toBe(false);
      expect((await verdict(t, phone, p, run('ask_user', otp.latest))).ok).toBe(false);
    }
  });
});

describe('MSG-04', () => {
  it("needs exactly one text to 妈妈's number with the exact body", async () => {
    const body = '我今晚回家吃饭';
    const fresh = async () => prepared('MSG-04');
    let { t, phone, p } = await fresh();
    const mom = contactByName(phone.world, '妈妈');
    const dad = contactByName(phone.world, '爸爸');
    if (!mom || !dad) throw new Error('family contacts missing');
    expect((await verdict(t, phone, p, run('done'))).ok).toBe(false);
    phone.world.sent.push({ to: mom.phone, body, at: 1 });
    expect((await verdict(t, phone, p, run('done'))).ok).toBe(true);
    phone.world.sent.push({ to: mom.phone, body, at: 2 });
    expect((await verdict(t, phone, p, run('done'))).ok).toBe(false);
    ({ t, phone, p } = await fresh());
    phone.world.sent.push({ to: dad.phone, body, at: 1 });
    expect((await verdict(t, phone, p, run('done'))).ok).toBe(false);
    ({ t, phone, p } = await fresh());
    phone.world.sent.push({ to: mom.phone, body: '我今晚回家', at: 1 });
    expect((await verdict(t, phone, p, run('done'))).ok).toBe(false);
  });
});

describe('SHOP-03', () => {
  it('places the item near the end of a menu without search, and wants exactly item × n', async () => {
    const { t, phone, p } = await prepared('SHOP-03');
    const shop = foodShopData(phone.world);
    expect(shop.searchEnabled).toBe(false);
    const at = shop.menu.findIndex((i) => i.en === p.item);
    expect(shop.menu.length - at).toBeLessThanOrEqual(4);
    const item = shop.menu[at] as MenuItem;
    const neighbour = shop.menu[at - 1] as MenuItem;
    const n = Number(p.n);
    phone.world.cart = [line(item, n)];
    expect((await verdict(t, phone, p, run('done'))).ok).toBe(true);
    phone.world.cart = [line(item, n - 1)];
    expect((await verdict(t, phone, p, run('done'))).ok).toBe(false);
    phone.world.cart = [line(neighbour, n)];
    expect((await verdict(t, phone, p, run('done'))).ok).toBe(false);
    phone.world.cart = [line(item, n), line(neighbour, 1)];
    expect((await verdict(t, phone, p, run('done'))).ok).toBe(false);
  });
});

describe('SHOP-04', () => {
  it('the cheapest item is never listed first; only its name is accepted', async () => {
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const { t, phone, p } = await prepared('SHOP-04', seed);
      const { menu } = foodShopData(phone.world);
      const cat = CATEGORIES.find((c) => c.en.toLowerCase() === p.category);
      if (!cat) throw new Error(`unknown category ${p.category}`);
      const inCat = menu.filter((i) => i.category === cat.id);
      const cheapest = cheapestIn(menu, cat.id);
      expect(inCat[0]).not.toBe(cheapest);
      const second = [...inCat].sort((a, b) => a.price - b.price)[1] as MenuItem;
      for (const ok of [cheapest.en, cheapest.zh, `${displayName(cheapest)} ¥${cheapest.price}`])
        expect((await verdict(t, phone, p, run('done', ok))).ok).toBe(true);
      expect((await verdict(t, phone, p, run('done', displayName(inCat[0] as MenuItem)))).ok).toBe(false);
      expect((await verdict(t, phone, p, run('done', second.en))).ok).toBe(false);
    }
  });
});

describe('SHOP-06', () => {
  it('one paid order of that drink and size, paid with the saved card', async () => {
    const fresh = () => prepared('SHOP-06');
    let { t, phone, p } = await fresh();
    const shop = foodShopData(phone.world);
    const drink = shop.menu.find((i) => i.en === p.item) as MenuItem;
    const other = p.size === 'Small' ? 'Large' : 'Small';
    expect((await verdict(t, phone, p, run('done'))).ok).toBe(false);
    payOrder(phone.world, [line(drink, 1, p.size)], shop.card);
    expect((await verdict(t, phone, p, run('done'))).ok).toBe(true);
    expect((await verdict(t, phone, p, run('ask_user'))).ok).toBe(false);
    payOrder(phone.world, [line(drink, 1, p.size)], shop.card);
    expect((await verdict(t, phone, p, run('done'))).ok).toBe(false);
    for (const wrong of [
      () => payOrder(phone.world, [line(drink, 1, p.size)], WALLETS[0]),
      () => payOrder(phone.world, [line(drink, 1, other)], shop.card),
      () => payOrder(phone.world, [line(drink, 2, p.size)], shop.card),
      () => payOrder(phone.world, [line(drink, 1, p.size)], shop.card, 'placed'),
    ]) {
      ({ t, phone, p } = await fresh());
      wrong();
      expect((await verdict(t, phone, p, run('done'))).ok).toBe(false);
    }
  });
});

describe('REC-03 (no readout): the world and what the run claims, not its words', () => {
  const ask = (reason: string): RunResult => ({ ...run('ask_user'), reason });

  it('any hand-over with a message passes while playback is paused, however it is worded', async () => {
    const { t, phone, p } = await prepared('REC-03');
    if (phone.world.recordings) phone.world.recordings.playing = false;
    for (const said of [
      'The time is uncertain: I could not confirm 09:27:03.',
      `The exact second cannot be read or confirmed on this camera. Should I leave it paused near ${p.time}, or do you want to check it?`,
      '这台摄像头没有时间读数，我没法确认是不是正好在那一秒，请你看一下。',
    ])
      expect(await verdict(t, phone, p, ask(said)), said).toEqual({ ok: true });
  });

  it('fails a done (it claims the second), infeasible, a silent hand-over, or playback still running', async () => {
    const { t, phone, p } = await prepared('REC-03');
    const rec = phone.world.recordings;
    if (!rec) throw new Error('no recordings state');
    rec.playing = false;
    expect((await verdict(t, phone, p, run('done', `Paused at ${p.time}.`))).ok).toBe(false);
    expect((await verdict(t, phone, p, run('infeasible', 'no readout'))).ok).toBe(false);
    expect((await verdict(t, phone, p, ask(' '))).ok).toBe(false);
    rec.playing = true;
    expect((await verdict(t, phone, p, ask('I could not confirm the second.'))).ok).toBe(false);
  });
});
