import type { World } from '../world.js';

/**
 * The Browser's pages. They are drawn only into the screenshot (one WebView node in the tree), like a
 * canvas-rendered page. The promo page prints a seeded coupon code in small grey text: readable
 * only after zooming in. The code lives on the world under `browser` for checkers.
 */
export interface BrowserData {
  couponCode: string;
}

export interface PageLine {
  text: string;
  size?: number;
  color?: string;
}

export interface Bookmark {
  title: string;
  url: string;
}

export const PROMO_URL = 'https://shop.example.com/promo';

export const BOOKMARKS: Bookmark[] = [
  { title: 'News · 新闻', url: 'https://news.example.com/' },
  { title: 'Promo · 优惠活动', url: PROMO_URL },
  { title: 'Weather · 天气', url: 'https://weather.example.com/today' },
  { title: 'Recipes · 菜谱', url: 'https://recipes.example.com/' },
  { title: 'Help · 帮助', url: 'https://docs.example.com/help' },
];

type WorldWithBrowser = World & { browser?: BrowserData };

// No 0/O/1/I: the code must be unambiguous once it is zoomed in.
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

export function browserData(world: World): BrowserData {
  const w = world as WorldWithBrowser;
  w.browser ??= { couponCode: 'SAVE-2345' };
  return w.browser;
}

export function seedBrowser(world: World, random: () => number): void {
  let code = '';
  for (let i = 0; i < 6; i++) code += ALPHABET[Math.floor(random() * ALPHABET.length)];
  (world as WorldWithBrowser).browser = { couponCode: `SAVE-${code}` };
}

export function pageLines(world: World, url: string): PageLine[] {
  const title = (text: string): PageLine => ({ text, size: 28, color: '#202124' });
  const body = (text: string): PageLine => ({ text, size: 16, color: '#3c4043' });
  const gap: PageLine = { text: '', size: 12 };
  switch (url) {
    case PROMO_URL:
      return [
        { text: 'SPRING SALE · 春季大促', size: 32, color: '#d32f2f' },
        body('Up to 50% off all drinks this week.'),
        body('全场饮品五折起，仅限本周。'),
        gap,
        body('Order in the FoodShop app and enter the code at checkout.'),
        body('在美食店 App 下单，结算时输入优惠码。'),
        gap,
        gap,
        { text: `Coupon code · 优惠码: ${browserData(world).couponCode}`, size: 6, color: '#9e9e9e' },
        { text: 'One use per customer. Terms apply. 每位用户限用一次。', size: 6, color: '#9e9e9e' },
      ];
    case 'https://news.example.com/':
      return [
        title('Morning Briefing · 早间简报'),
        body('Metro line 14 opens two new stations on Monday.'),
        body('城市图书馆延长周末开放时间。'),
        body('Local team wins the regional final 3–1.'),
      ];
    case 'https://weather.example.com/today':
      return [
        title('Today · 今天'),
        body('Sunny, 24°C / 17°C · 晴'),
        body('Humidity 40% · Wind NE 3'),
        body('Tomorrow: light rain 小雨'),
      ];
    case 'https://recipes.example.com/':
      return [
        title('Recipes · 菜谱'),
        body('Tomato and egg stir-fry 番茄炒蛋'),
        body('Iced coffee at home 自制冰咖啡'),
        body('Scallion pancakes 葱油饼'),
      ];
    case 'https://docs.example.com/help':
      return [
        title('Help Center · 帮助中心'),
        body('Clear your browsing data from Settings.'),
        body('使用书签快速访问常用网页。'),
      ];
    default:
      return [title("This site can't be reached"), body(`${url} took too long to respond.`), body('无法访问此网站。')];
  }
}

/** "example.com" → "https://example.com/" so typed addresses find the bookmarked pages. */
export function normalizeUrl(raw: string): string {
  const t = raw.trim();
  if (!t) return t;
  const withScheme = /^https?:\/\//i.test(t) ? t : `https://${t}`;
  const known = BOOKMARKS.find((b) => b.url.replace(/\/$/, '') === withScheme.replace(/\/$/, ''));
  return known ? known.url : withScheme;
}
