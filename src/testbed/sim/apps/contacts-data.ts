import type { Contact, World } from '../world.js';

/**
 * 250 seeded contacts: about half Chinese, half English names, plus family entries ("妈妈", "爸爸")
 * that tasks address by name. Same seed, same contacts. "张伟" is deliberately absent so a task can
 * add it and check the exact Unicode name.
 */
export const CONTACT_COUNT = 250;
const FAMILY = ['妈妈', '爸爸'];
const EXCLUDED = new Set(['张伟']);

const ZH_SURNAMES = '王李张刘陈杨黄赵吴周徐孙马朱胡郭何林罗高郑梁谢宋唐许韩冯邓曹'.split('');
const ZH_GIVEN = [
  '芳',
  '娜',
  '敏',
  '静',
  '丽',
  '强',
  '磊',
  '军',
  '洋',
  '勇',
  '艳',
  '杰',
  '娟',
  '涛',
  '明',
  '超',
  '秀英',
  '霞',
  '平',
  '刚',
  '桂英',
  '晓东',
  '婷',
  '浩然',
  '宇航',
  '欣怡',
  '子涵',
  '思远',
  '建国',
  '志强',
  '雨桐',
  '佳琪',
  '俊杰',
  '梓轩',
];
const EN_FIRST = [
  'James',
  'Mary',
  'John',
  'Patricia',
  'Robert',
  'Jennifer',
  'Michael',
  'Linda',
  'William',
  'Elizabeth',
  'David',
  'Barbara',
  'Richard',
  'Susan',
  'Joseph',
  'Jessica',
  'Thomas',
  'Sarah',
  'Charles',
  'Karen',
  'Emma',
  'Olivia',
  'Liam',
  'Noah',
  'Ava',
  'Sophia',
  'Mia',
  'Lucas',
  'Ethan',
  'Chloe',
  'Grace',
  'Daniel',
];
const EN_LAST = [
  'Smith',
  'Johnson',
  'Williams',
  'Brown',
  'Jones',
  'Garcia',
  'Miller',
  'Davis',
  'Rodriguez',
  'Martinez',
  'Lee',
  'Walker',
  'Hall',
  'Allen',
  'Young',
  'King',
  'Wright',
  'Scott',
  'Green',
  'Baker',
  'Adams',
  'Nelson',
  'Hill',
  'Campbell',
  'Mitchell',
  'Chen',
  'Wong',
  'Nguyen',
];

/** Chinese mobile numbers are 11 digits; US numbers are written the way people save them. */
function zhPhone(random: () => number): string {
  let s = `1${'35789'[Math.floor(random() * 5)]}`;
  for (let i = 0; i < 9; i++) s += Math.floor(random() * 10);
  return s;
}

function usPhone(random: () => number): string {
  const area = ['415', '650', '212', '617', '206'][Math.floor(random() * 5)];
  return `+1 ${area}-555-${String(Math.floor(random() * 10000)).padStart(4, '0')}`;
}

export function seedContacts(world: World, random: () => number): void {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];
  const contacts: Contact[] = [];
  const names = new Set<string>();
  const add = (name: string, phone: string, email?: string) => {
    names.add(name);
    contacts.push({ id: contacts.length + 1, name, phone, ...(email ? { email } : {}) });
  };
  for (const name of FAMILY) add(name, zhPhone(random));
  while (contacts.length < CONTACT_COUNT) {
    if (random() < 0.5) {
      const name = pick(ZH_SURNAMES) + pick(ZH_GIVEN);
      if (names.has(name) || EXCLUDED.has(name)) continue;
      add(name, zhPhone(random));
    } else {
      const first = pick(EN_FIRST);
      const last = pick(EN_LAST);
      const name = `${first} ${last}`;
      if (names.has(name)) continue;
      add(name, usPhone(random), random() < 0.4 ? `${first}.${last}@example.com`.toLowerCase() : undefined);
    }
  }
  world.contacts = contacts;
}

/** Android's contact list order: Chinese by pinyin, Latin alphabetically (ICU zh collation). */
const collator = new Intl.Collator('zh-Hans-CN');

export function sortedContacts(contacts: Contact[]): Contact[] {
  return [...contacts].sort((a, b) => collator.compare(a.name, b.name) || a.id - b.id);
}

export function contactByName(world: World, name: string): Contact | undefined {
  return world.contacts.find((c) => c.name === name);
}

/** Digits only (keeps a leading +), so "+1 415-555-0101" and "+14155550101" compare equal. */
export function normalizePhone(phone: string): string {
  return phone.replace(/(?!^\+)[^\d]/g, '');
}

export function contactByPhone(world: World, phone: string): Contact | undefined {
  const n = normalizePhone(phone);
  return world.contacts.find((c) => normalizePhone(c.phone) === n);
}
