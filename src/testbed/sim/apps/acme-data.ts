import type { World } from '../world.js';

/**
 * Acme's server side: the one account that can log in. It lives on the world object (under `acme`)
 * so regression tasks can parametrize the credentials and checkers can read them, while nothing the
 * agent reaches exposes it.
 */
export interface AcmeAccount {
  email: string;
  password: string;
}

type WorldWithAcme = World & { acme?: AcmeAccount };

const FIRST = ['alice', 'bob', 'carol', 'li.wei', 'zhang.min', 'sam', 'wang.fang', 'dana'];
const LETTERS = 'abcdefghjkmnpqrstuvwxyz';

export function acmeAccount(world: World): AcmeAccount {
  const w = world as WorldWithAcme;
  w.acme ??= { email: 'alice@acme.test', password: 'Secret-123' };
  return w.acme;
}

/** Tasks set their own credentials (and balance) after the world was seeded. */
export function setAcmeAccount(world: World, account: AcmeAccount & { balance?: string }): void {
  (world as WorldWithAcme).acme = { email: account.email, password: account.password };
  if (account.balance !== undefined) world.account.balance = account.balance;
}

export function seedAcme(world: World, random: () => number): void {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];
  const name = pick(FIRST);
  let pw = '';
  for (let i = 0; i < 6; i++) pw += pick(LETTERS.split(''));
  const email = `${name}${10 + Math.floor(random() * 90)}@acme.test`;
  setAcmeAccount(world, { email, password: `${pw}-${100 + Math.floor(random() * 900)}` });
  const cents = Math.floor(random() * 5_000_000) + 10_000;
  world.account.balance = formatMoney(cents);
}

/** `1234567` cents → `¥12,345.67`. */
export function formatMoney(cents: number): string {
  const yuan = Math.floor(cents / 100).toLocaleString('en-US');
  return `¥${yuan}.${String(cents % 100).padStart(2, '0')}`;
}
