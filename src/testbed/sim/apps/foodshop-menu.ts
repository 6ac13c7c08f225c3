import type { World } from '../world.js';

/**
 * FoodShop's menu: a fixed catalogue of bilingual items whose order within a category and prices
 * come from the seed. The cheapest item of every category is unique, so "which is cheapest?" has
 * one answer. The menu lives on the world (under `foodshop`) so checkers can read it.
 */

export type CategoryId = 'coffee' | 'tea' | 'juice' | 'food' | 'dessert' | 'bakery';

export const CATEGORIES: { id: CategoryId; en: string; zh: string; min: number; max: number }[] = [
  { id: 'coffee', en: 'Coffee', zh: '咖啡', min: 15, max: 38 },
  { id: 'tea', en: 'Tea', zh: '茶饮', min: 10, max: 28 },
  { id: 'juice', en: 'Juice', zh: '果汁', min: 12, max: 30 },
  { id: 'food', en: 'Food', zh: '餐食', min: 18, max: 48 },
  { id: 'dessert', en: 'Dessert', zh: '甜品', min: 12, max: 36 },
  { id: 'bakery', en: 'Bakery', zh: '烘焙', min: 8, max: 24 },
];

const NAMES: Record<CategoryId, string> = {
  coffee:
    'Americano 美式咖啡|Latte 拿铁|Cappuccino 卡布奇诺|Flat White 澳白|Mocha 摩卡|Espresso 意式浓缩|' +
    'Caramel Macchiato 焦糖玛奇朵|Cold Brew 冷萃咖啡|Cortado 可塔朵|Affogato 阿芙佳朵|Irish Coffee 爱尔兰咖啡|' +
    'Vanilla Latte 香草拿铁|Hazelnut Latte 榛果拿铁|Coconut Latte 生椰拿铁|Oat Latte 燕麦拿铁|' +
    'Osmanthus Latte 桂花拿铁|Caramel Latte 焦糖拿铁|Rose Latte 玫瑰拿铁|Dirty Coffee 脏脏咖啡|' +
    'Nitro Cold Brew 氮气冷萃|Orange Americano 橙C美式|Coconut Cold Brew 椰子冷萃',
  tea:
    'Jasmine Green Tea 茉莉绿茶|Oolong Tea 乌龙茶|Black Tea 红茶|Milk Tea 奶茶|Matcha Latte 抹茶拿铁|' +
    'Earl Grey 伯爵红茶|Pu-erh Tea 普洱茶|Longjing Tea 龙井茶|Peach Oolong 白桃乌龙|Lemon Tea 柠檬茶|' +
    'Taro Milk Tea 芋泥奶茶|Brown Sugar Boba 黑糖珍珠奶茶|Grapefruit Jasmine 西柚茉莉|Honey Citron Tea 蜂蜜柚子茶|' +
    'Chrysanthemum Tea 菊花茶|Ginger Tea 姜茶|Thai Milk Tea 泰式奶茶|Hong Kong Milk Tea 港式奶茶|' +
    'Mango Green Tea 芒果绿茶|Lychee Black Tea 荔枝红茶|Strawberry Oolong 草莓乌龙|Rose Tea 玫瑰花茶',
  juice:
    'Orange Juice 橙汁|Apple Juice 苹果汁|Watermelon Juice 西瓜汁|Mango Smoothie 芒果冰沙|' +
    'Strawberry Smoothie 草莓冰沙|Kiwi Juice 猕猴桃汁|Carrot Juice 胡萝卜汁|Grape Juice 葡萄汁|' +
    'Pineapple Juice 菠萝汁|Lemonade 柠檬水|Coconut Water 椰子水|Pomegranate Juice 石榴汁|Pear Juice 雪梨汁|' +
    'Blueberry Smoothie 蓝莓冰沙|Banana Shake 香蕉奶昔|Kale Detox 羽衣甘蓝果蔬汁|Passion Fruit Soda 百香果气泡水|' +
    'Grapefruit Juice 西柚汁|Celery Juice 芹菜汁|Peach Juice 蜜桃汁',
  food:
    'Chicken Sandwich 鸡肉三明治|Beef Burger 牛肉汉堡|Caesar Salad 凯撒沙拉|Tuna Wrap 金枪鱼卷|Fried Rice 扬州炒饭|' +
    'Beef Noodles 牛肉面|Dumplings 水饺|Pork Buns 鲜肉包|Congee 皮蛋瘦肉粥|Club Sandwich 总汇三明治|' +
    'Chicken Wrap 鸡肉卷|Margherita Pizza 玛格丽特披萨|Spaghetti Bolognese 肉酱意面|' +
    'Kung Pao Chicken Rice 宫保鸡丁饭|Mapo Tofu Rice 麻婆豆腐饭|Wonton Soup 馄饨汤|Scallion Pancake 葱油饼|' +
    'Curry Chicken Rice 咖喱鸡饭|Teriyaki Salmon Bowl 照烧三文鱼饭|Avocado Toast 牛油果吐司|' +
    'Ham Cheese Panini 火腿芝士帕尼尼',
  dessert:
    'Tiramisu 提拉米苏|Cheesecake 芝士蛋糕|Chocolate Brownie 巧克力布朗尼|Mango Pudding 芒果布丁|Egg Tart 蛋挞|' +
    'Red Bean Soup 红豆沙|Macaron 马卡龙|Mochi 麻薯|Panna Cotta 意式奶冻|Matcha Cake 抹茶蛋糕|Apple Pie 苹果派|' +
    'Ice Cream Sundae 冰淇淋圣代|Durian Crepe 榴莲千层|Black Forest Cake 黑森林蛋糕|Creme Brulee 焦糖布蕾|' +
    'Sesame Balls 芝麻球|Fruit Tart 水果挞|Lemon Tart 柠檬挞|Waffle 华夫饼|Sago Mango 杨枝甘露',
  bakery:
    'Croissant 可颂|Bagel 贝果|Cinnamon Roll 肉桂卷|Blueberry Muffin 蓝莓玛芬|Baguette 法棍|Pineapple Bun 菠萝包|' +
    'Scone 司康|Pain au Chocolat 巧克力可颂|Danish 丹麦酥|Sourdough 酸种面包|Focaccia 佛卡夏|Brioche 布里欧修|' +
    'Pretzel 椒盐卷饼|Banana Bread 香蕉面包|Almond Croissant 杏仁可颂|Garlic Bread 蒜香面包|Red Bean Bun 红豆包|' +
    'Pork Floss Bun 肉松面包|Milk Toast 牛奶吐司|Walnut Bread 核桃面包',
};

export interface MenuItem {
  /** Stable slug of the English name, e.g. `coconut-latte`. */
  id: string;
  en: string;
  zh: string;
  category: CategoryId;
  /** Listed price (Medium for drinks), whole yuan. */
  price: number;
  /** Drinks have sizes, ice and sweetness; coffee also takes an extra shot. */
  drink: boolean;
  extraShot: boolean;
}

export const SIZES = [
  { id: 'Small', zh: '小杯', delta: -2 },
  { id: 'Medium', zh: '中杯', delta: 0 },
  { id: 'Large', zh: '大杯', delta: 3 },
] as const;
export type SizeId = (typeof SIZES)[number]['id'];

/** Option names as stored in `CartLine.options`. */
export const OPTION_ICE = 'Iced';
export const OPTION_EXTRA_SHOT = 'Extra shot';
export const EXTRA_SHOT_PRICE = 4;

export function displayName(item: MenuItem): string {
  return `${item.en} ${item.zh}`;
}

/** The name the menu shows in this locale (displayName stays the item's full name, kept as data). */
export function localName(ctx: { readonly locale?: 'en' | 'zh' }, item: MenuItem): string {
  return ctx.locale === 'zh' ? item.zh : item.en;
}

export function unitPrice(item: MenuItem, size: SizeId | undefined, extraShot: boolean): number {
  const delta = item.drink ? (SIZES.find((s) => s.id === size)?.delta ?? 0) : 0;
  return item.price + delta + (item.extraShot && extraShot ? EXTRA_SHOT_PRICE : 0);
}

function slug(en: string): string {
  return en
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** The whole menu, grouped by category in `CATEGORIES` order; same `random` sequence → same menu. */
export function buildMenu(random: () => number): MenuItem[] {
  const menu: MenuItem[] = [];
  for (const cat of CATEGORIES) {
    const items = NAMES[cat.id].split('|').map((entry): MenuItem => {
      const cut = entry.search(/[\u3400-\u9fff]/u);
      const en = entry.slice(0, cut).trim();
      const price = cat.min + Math.floor(random() * (cat.max - cat.min + 1));
      const drink = cat.id === 'coffee' || cat.id === 'tea' || cat.id === 'juice';
      return {
        id: slug(en),
        en,
        zh: entry.slice(cut).trim(),
        category: cat.id,
        price,
        drink,
        extraShot: cat.id === 'coffee',
      };
    });
    // Fisher–Yates with the seeded random: the position of an item in the menu varies per seed.
    for (let i = items.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [items[i], items[j]] = [items[j], items[i]];
    }
    makeCheapestUnique(items);
    menu.push(...items);
  }
  return menu;
}

/** Ties at the minimum price are broken by raising all but the first tied item by ¥1. */
function makeCheapestUnique(items: MenuItem[]): void {
  const min = Math.min(...items.map((i) => i.price));
  let seen = false;
  for (const item of items) {
    if (item.price !== min) continue;
    if (seen) item.price += 1;
    seen = true;
  }
}

export interface FoodShopData {
  menu: MenuItem[];
  /** Task variant: the menu has no search box (SHOP-03). */
  searchEnabled: boolean;
  /** Task variant: the menu has no category chips and no price sort (SHOP-03: scroll to find). */
  filtersEnabled: boolean;
  /** The product page last opened (checkers: "screen == product/{dish}" with the activity). */
  productId?: string;
  /** The saved card, one of the payment methods. */
  card: string;
  /** The payment method selected on the payment page: the saved card or a wallet. */
  method: string;
  address: string;
}

/** Wallets offered besides the saved card; the first is preselected (as Chinese checkouts do). */
export const WALLETS = ['WeChat Pay · 微信支付', 'Alipay · 支付宝'] as const;

type WorldWithFoodShop = World & { foodshop?: FoodShopData };

export function foodShopData(world: World): FoodShopData {
  const w = world as WorldWithFoodShop;
  w.foodshop ??= seededFoodShop(() => 0.5);
  return w.foodshop;
}

function seededFoodShop(random: () => number): FoodShopData {
  const menu = buildMenu(random);
  const card = `Visa •••• ${String(1000 + Math.floor(random() * 9000))}`;
  const address = `${1 + Math.floor(random() * 200)} Binhai Road · 滨海路${1 + Math.floor(random() * 200)}号`;
  return { menu, searchEnabled: true, filtersEnabled: true, card, method: WALLETS[0], address };
}

export function seedFoodShop(world: World, random: () => number): void {
  (world as WorldWithFoodShop).foodshop = seededFoodShop(random);
}

export function findItem(world: World, id: string): MenuItem | undefined {
  return foodShopData(world).menu.find((i) => i.id === id);
}

/** Case-insensitive substring search over both names. */
export function searchMenu(menu: MenuItem[], query: string): MenuItem[] {
  const q = query.trim().toLowerCase();
  if (!q) return menu;
  return menu.filter(
    (i) => i.en.toLowerCase().includes(q) || i.zh.includes(q) || displayName(i).toLowerCase().includes(q),
  );
}

export function cheapestIn(menu: MenuItem[], category: CategoryId): MenuItem {
  const items = menu.filter((i) => i.category === category);
  return items.reduce((a, b) => (b.price < a.price ? b : a));
}
