import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { numberAnswer, numbersIn, stringAnswer } from '../../regression-tasks/answers.js';
import { instantiate } from '../../regression-tasks/harness.js';
import { TASKS } from '../../regression-tasks/index.js';
import { emptyResult } from '../../src/agent/session.js';
import type { RunResult } from '../../src/agent/types.js';
import { setAcmeAccount } from '../../src/testbed/sim/apps/acme-data.js';
import { VirtualPhone } from '../../src/testbed/sim/index.js';

/** Answers judged by type (AndroidWorld): the right value in any honest wording passes; a wrong one fails. */
describe('typed answer checks', () => {
  it('numbers by value: currency, separators and words around them do not matter', () => {
    expect(numbersIn('可用余额为 ¥44,321.94。')).toEqual([44321.94]);
    expect(numberAnswer('…可用余额为 ¥44,321.94。', '¥44,321.94')).toBe(true);
    expect(numberAnswer('44321.94', '¥44,321.94')).toBe(true);
    expect(numberAnswer('Android 14', '14')).toBe(true);
    expect(numberAnswer('¥44,321.95', '¥44,321.94')).toBe(false);
    expect(numberAnswer('44,321.94 or 12,000.00', '¥44,321.94')).toBe(false);
    expect(numberAnswer('', '14')).toBe(false);
    // A masked account number quoted beside the balance names the account; it is not a second value.
    expect(numberAnswer('已登录，账户可用余额为 ¥44,321.94（Checking •••• 3021）', '¥44,321.94')).toBe(true);
    expect(numberAnswer('¥44,321.94 (Checking 3021)', '¥44,321.94')).toBe(false);
    // So does the account the user logged in as (relay run D, LOGIN-03), and a name with digits.
    const loggedIn = '已登录 wang150@acme.test，可用余额为 ¥44,321.94（Checking •••• 3021）';
    expect(numberAnswer(loggedIn, '¥44,321.94')).toBe(true);
    expect(numberAnswer('Signed in as wang150: ¥44,321.94', '¥44,321.94')).toBe(true);
    expect(numberAnswer('已登录 wang150@acme.test，余额 ¥44,321.00', '¥44,321.94')).toBe(false);
    expect(numberAnswer('¥44,321.94, 150 pending', '¥44,321.94')).toBe(false);
  });

  it('strings normalized, and contained in a short answer as whole words', () => {
    expect(stringAnswer('Pixel 7', 'pixel 7')).toBe(true);
    expect(stringAnswer('型号：Pixel 7。', 'Pixel 7')).toBe(true);
    expect(stringAnswer('"Ｐｉｘｅｌ ７"', 'Pixel 7')).toBe(true);
    expect(stringAnswer('Pixel 8', 'Pixel 7')).toBe(false);
    expect(stringAnswer('Pixel 70', 'Pixel 7')).toBe(false);
    expect(stringAnswer('The cheapest is Coconut Latte', 'Latte', ['Coconut Latte'])).toBe(false);
    expect(stringAnswer('The cheapest is Coconut Latte', 'Coconut Latte', ['Latte'])).toBe(true);
    expect(stringAnswer(`${'a very long answer '.repeat(6)} Pixel 7`, 'Pixel 7')).toBe(false);
  });

  it('LOGIN-03 accepts the balance in a sentence and rejects a wrong balance', async () => {
    const t = TASKS.find((x) => x.id === 'LOGIN-03');
    if (!t) throw new Error('no LOGIN-03');
    const phone = new VirtualPhone({ seed: 3, locale: 'zh' });
    const { params } = instantiate(t, 3);
    await t.setup?.(phone, params);
    setAcmeAccount(phone.world, { email: params.email ?? '', password: params.pw ?? '', balance: '¥44,321.94' });
    phone.world.session.user = params.email ?? '';
    const runDir = mkdtempSync(join(tmpdir(), 'login03-'));
    const run = (answer: string): RunResult => ({
      ...emptyResult('r', '', ''),
      runDir,
      status: 'done',
      answer,
      steps: 1,
    });
    expect(await t.check(phone.world, run('您的账户可用余额为 ¥44,321.94。'), params, phone)).toMatchObject({
      ok: true,
    });
    expect(await t.check(phone.world, run('44321.94'), params, phone)).toMatchObject({ ok: true });
    expect(await t.check(phone.world, run('¥44,312.94'), params, phone)).toMatchObject({ ok: false });
  });
});
