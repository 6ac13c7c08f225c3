import type { App, AppContext, AppScreen, Route } from '../app.js';
import { tr } from '../kit/locale.js';
import type { View } from '../kit/view.js';
import { cartScreen, checkoutScreen, FOODSHOP_PACKAGE, orderDoneScreen, paymentScreen } from './foodshop-checkout.js';
import { filterBar, filterMenu, type MenuFilter } from './foodshop-filters.js';
import {
  CATEGORIES,
  displayName,
  EXTRA_SHOT_PRICE,
  findItem,
  foodShopData,
  localName,
  type MenuItem,
  OPTION_EXTRA_SHOT,
  OPTION_ICE,
  SIZES,
  type SizeId,
  searchMenu,
  seedFoodShop,
  unitPrice,
} from './foodshop-menu.js';

/**
 * FoodShop: an "update available" dialog on first launch, a long bilingual menu with search, a
 * product page with size / ice / extra shot / sweetness / quantity, then cart → checkout → payment.
 */
export { FOODSHOP_PACKAGE } from './foodshop-checkout.js';

const MENU_LOAD_MS = 600;

interface ProductDraft {
  itemId: string;
  size: SizeId;
  ice: boolean;
  extraShot: boolean;
  sweetness: number;
  qty: number;
  /** What the quantity field shows while it is being retyped (empty); otherwise it shows `qty`. */
  qtyText?: string;
}

const CATEGORY_COLORS: Record<string, string> = {
  coffee: '#6f4e37',
  tea: '#5b8c3a',
  juice: '#f29f05',
  food: '#c0392b',
  dessert: '#d35d8c',
  bakery: '#b9770e',
};

export function createFoodShopApp(): App {
  let query = '';
  let filter: MenuFilter = { byPrice: false };
  let draft: ProductDraft | undefined;
  /** The menu arrives from the "server" shortly after a cold start (content that appears late). */
  let menuReady = true;
  /** Orders whose payment confirmation is still "processing" (a short loading state). */
  const processing = new Set<number>();

  const freshDraft = (itemId: string): ProductDraft => ({
    itemId,
    size: 'Medium',
    ice: false,
    extraShot: false,
    sweetness: 50,
    qty: 1,
  });

  const openProduct = (ctx: AppContext, item: MenuItem): void => {
    draft = freshDraft(item.id);
    foodShopData(ctx.world).productId = item.id;
    ctx.navigate('.ProductActivity', { itemId: item.id });
  };

  const itemRow = (ctx: AppContext, item: MenuItem): View => ({
    kind: 'row',
    id: 'menu_item',
    padding: 12,
    gap: 8,
    onTap: () => openProduct(ctx, item),
    children: [
      { kind: 'text', id: 'item_name', text: localName(ctx, item), size: 'body', weight: 4 },
      { kind: 'text', id: 'item_price', text: `¥${item.price}`, size: 'body', bold: true, weight: 1 },
    ],
  });

  const menuScreen = (ctx: AppContext): AppScreen => {
    const { world } = ctx;
    const shop = foodShopData(world);
    const searched = shop.searchEnabled ? searchMenu(shop.menu, query) : shop.menu;
    const items = shop.filtersEnabled ? filterMenu(searched, filter) : searched;
    const rows: View[] = [];
    if (shop.searchEnabled && query.trim()) {
      for (const item of items) rows.push(itemRow(ctx, item));
      if (items.length === 0)
        rows.push({ kind: 'text', id: 'no_results', text: tr(ctx, 'No results', '没有找到'), size: 'body' });
    } else {
      for (const cat of CATEGORIES) {
        if (!items.some((i) => i.category === cat.id)) continue;
        rows.push({ kind: 'text', id: 'category', text: tr(ctx, cat.en, cat.zh), size: 'large', bold: true });
        for (const item of items.filter((i) => i.category === cat.id)) rows.push(itemRow(ctx, item));
      }
    }
    const count = world.cart.reduce((n, l) => n + l.qty, 0);
    const top: View[] = [
      {
        kind: 'row',
        gap: 8,
        children: [
          { kind: 'text', text: tr(ctx, 'FoodShop', '美食店'), size: 'title', bold: true, weight: 3 },
          {
            kind: 'button',
            id: 'cart',
            text: `${tr(ctx, 'Cart', '购物车')} (${count})`,
            style: 'secondary',
            weight: 2,
            onTap: () => ctx.navigate('.CartActivity'),
          },
        ],
      },
    ];
    if (shop.searchEnabled) {
      top.push({
        kind: 'edit',
        id: 'search',
        value: query,
        hint: tr(ctx, 'Search the menu', '搜索菜品'),
        onChange: (v) => {
          query = v;
        },
      });
    }
    if (shop.filtersEnabled)
      top.push(
        ...filterBar(ctx, filter, (next) => {
          filter = next;
        }),
      );
    // While the menu loads, the app's own bar is drawn with a spinner below it: the first-launch
    // dialog sits over FoodShop, not over a blank screen.
    const body: View[] = menuReady
      ? [...top, { kind: 'list', id: 'menu', gap: 2, height: 'fill', children: rows }]
      : [top[0] as View, ...loadingBody()];
    return {
      activity: '.MenuActivity',
      title: tr(ctx, 'FoodShop', '美食店'),
      root: { kind: 'column', padding: 12, gap: 8, children: body },
    };
  };

  const productScreen = (ctx: AppContext, route: Route): AppScreen => {
    const item = findItem(ctx.world, String(route.params.itemId ?? ''));
    if (!item) return menuScreen(ctx);
    if (!draft || draft.itemId !== item.id) draft = freshDraft(item.id);
    const d = draft;
    const price = unitPrice(item, item.drink ? d.size : undefined, d.extraShot);
    const body: View[] = [
      { kind: 'image', id: 'photo', color: CATEGORY_COLORS[item.category], glyph: item.zh.slice(0, 1), height: 160 },
      { kind: 'text', id: 'product_name', text: localName(ctx, item), size: 'title', bold: true },
      { kind: 'text', id: 'price', text: `¥${price}`, size: 'large' },
    ];
    if (item.drink) {
      body.push({ kind: 'text', text: tr(ctx, 'Size', '杯型'), size: 'body', bold: true });
      body.push({
        kind: 'column',
        gap: 0,
        children: SIZES.map(
          (s): View => ({
            kind: 'checkbox',
            id: `size_${s.id.toLowerCase()}`,
            text: `${tr(ctx, s.id, s.zh)}${s.delta ? ` ${s.delta > 0 ? '+' : '−'}¥${Math.abs(s.delta)}` : ''}`,
            checked: d.size === s.id,
            onToggle: () => {
              d.size = s.id;
            },
          }),
        ),
      });
      body.push({
        kind: 'switch',
        id: 'ice',
        text: tr(ctx, 'Ice', '加冰'),
        checked: d.ice,
        onToggle: (next) => {
          d.ice = next;
        },
      });
      if (item.extraShot) {
        body.push({
          kind: 'checkbox',
          id: 'extra_shot',
          text: `${tr(ctx, 'Extra shot', '加一份浓缩')} +¥${EXTRA_SHOT_PRICE}`,
          checked: d.extraShot,
          onToggle: (next) => {
            d.extraShot = next;
          },
        });
      }
      body.push({
        kind: 'text',
        id: 'sweetness_label',
        text: `${tr(ctx, 'Sweetness', '甜度')} ${d.sweetness}%`,
        size: 'body',
      });
      body.push({
        kind: 'seekbar',
        id: 'sweetness',
        desc: tr(ctx, 'Sweetness', '甜度'),
        min: 0,
        max: 100,
        value: d.sweetness,
        onChange: (v) => {
          d.sweetness = Math.max(0, Math.min(100, Math.round(v)));
        },
      });
    }
    const addToCart = (): void => {
      const options = item.drink
        ? [...(d.ice ? [OPTION_ICE] : []), ...(d.extraShot && item.extraShot ? [OPTION_EXTRA_SHOT] : [])]
        : [];
      const line = {
        itemId: item.id,
        name: displayName(item),
        size: item.drink ? d.size : undefined,
        options,
        sweetness: item.drink ? d.sweetness : undefined,
        qty: d.qty,
        unitPrice: price,
      };
      const same = ctx.world.cart.find(
        (l) =>
          l.itemId === line.itemId &&
          l.size === line.size &&
          l.sweetness === line.sweetness &&
          l.options.join('|') === line.options.join('|'),
      );
      if (same) same.qty += line.qty;
      else ctx.world.cart.push(line);
      ctx.toast(`${tr(ctx, 'Added to cart', '已加入购物车')} (${d.qty})`);
    };
    return {
      activity: '.ProductActivity',
      // The activity's label follows the locale, as the page's own texts do.
      title: localName(ctx, item),
      root: {
        kind: 'column',
        padding: 12,
        gap: 8,
        children: [
          { kind: 'list', id: 'product', gap: 8, height: 'fill', children: body },
          {
            kind: 'row',
            gap: 8,
            children: [
              { kind: 'text', text: tr(ctx, 'Quantity', '数量'), size: 'body', weight: 2 },
              {
                kind: 'button',
                id: 'qty_minus',
                text: '−',
                desc: tr(ctx, 'Decrease quantity', '减少数量'),
                style: 'secondary',
                onTap: () => {
                  d.qty = Math.max(1, d.qty - 1);
                  d.qtyText = undefined;
                },
              },
              {
                // Editable like Taobao's or JD's stepper: digits only (a number pad), 1–99.
                kind: 'edit',
                id: 'qty',
                value: d.qtyText ?? String(d.qty),
                hint: tr(ctx, 'Quantity', '数量'),
                onChange: (v) => {
                  const digits = v.replace(/\D/g, '');
                  d.qtyText = digits ? undefined : '';
                  if (digits) d.qty = Math.min(99, Math.max(1, Number(digits)));
                },
              },
              {
                kind: 'button',
                id: 'qty_plus',
                text: '+',
                desc: tr(ctx, 'Increase quantity', '增加数量'),
                style: 'secondary',
                onTap: () => {
                  d.qty = Math.min(99, d.qty + 1);
                  d.qtyText = undefined;
                },
              },
            ],
          },
          {
            kind: 'row',
            gap: 8,
            children: [
              {
                kind: 'button',
                id: 'add_to_cart',
                text: `${tr(ctx, 'Add to cart', '加入购物车')} ¥${price * d.qty}`,
                style: 'primary',
                weight: 3,
                onTap: addToCart,
              },
              {
                kind: 'button',
                id: 'cart',
                text: `${tr(ctx, 'Cart', '购物车')} (${ctx.world.cart.reduce((n, l) => n + l.qty, 0)})`,
                style: 'secondary',
                weight: 2,
                onTap: () => ctx.navigate('.CartActivity'),
              },
            ],
          },
        ],
      },
    };
  };

  const onPaid = (ctx: AppContext) => (orderId: number) => {
    processing.add(orderId);
    ctx.replace('.OrderDoneActivity', { orderId });
    ctx.later(1200, () => {
      processing.delete(orderId);
      ctx.invalidate();
    });
  };

  return {
    package: FOODSHOP_PACKAGE,
    label: 'FoodShop',
    labelZh: '美食店',
    iconColor: '#e4572e',
    glyph: '食',
    activities: [
      '.MenuActivity',
      '.ProductActivity',
      '.CartActivity',
      '.CheckoutActivity',
      '.PaymentActivity',
      '.OrderDoneActivity',
    ],
    seedWorld: seedFoodShop,
    onLaunch(ctx) {
      query = '';
      filter = { byPrice: false };
      draft = undefined;
      menuReady = false;
      ctx.later(MENU_LOAD_MS, () => {
        menuReady = true;
        ctx.invalidate();
      });
      const { world } = ctx;
      if (world.launched[FOODSHOP_PACKAGE]) return;
      world.launched[FOODSHOP_PACKAGE] = true;
      showUpdateDialog(ctx);
    },
    render(route, ctx) {
      switch (route.activity) {
        case '.ProductActivity':
          return productScreen(ctx, route);
        case '.CartActivity':
          return cartScreen(ctx);
        case '.CheckoutActivity':
          return checkoutScreen(ctx);
        case '.PaymentActivity':
          return paymentScreen(ctx, onPaid(ctx));
        case '.OrderDoneActivity': {
          const orderId = Number(route.params.orderId ?? 0);
          return orderDoneScreen(ctx, orderId, processing.has(orderId));
        }
        default:
          return menuScreen(ctx);
      }
    },
  };
}

function loadingBody(): View[] {
  return [
    { kind: 'column', children: [], height: 'fill' },
    { kind: 'image', id: 'progress', className: 'android.widget.ProgressBar', glyph: '◌', height: 48 },
    { kind: 'column', children: [], height: 'fill' },
  ];
}

function showUpdateDialog(ctx: AppContext): void {
  const { world } = ctx;
  ctx.showDialog({
    kind: 'app',
    title: tr(ctx, 'Update available', '发现新版本'),
    message: tr(ctx, 'FoodShop 5.2 is available with faster checkout.', '新版本已发布，是否立即更新？'),
    buttons: [
      { text: tr(ctx, 'Later', '稍后'), id: 'later', onTap: () => ctx.closeDialog() },
      {
        text: tr(ctx, 'Update', '更新'),
        id: 'update',
        onTap: () => {
          world.updateStarted = true;
          ctx.closeDialog();
          ctx.toast(tr(ctx, 'Downloading update…', '正在下载更新…'));
        },
      },
    ],
  });
}
