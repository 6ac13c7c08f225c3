import type { AppContext, AppScreen } from '../app.js';
import { pickName, tr } from '../kit/locale.js';
import type { View } from '../kit/view.js';
import { type CartLine, recordEvent } from '../world.js';
import { findItem, foodShopData, localName, SIZES, WALLETS } from './foodshop-menu.js';

/** FoodShop's cart, checkout and payment screens; paying is the app's irreversible act. */
export const FOODSHOP_PACKAGE = 'com.foodshop';

export function cartTotal(lines: CartLine[]): number {
  return lines.reduce((sum, l) => sum + l.unitPrice * l.qty, 0);
}

const OPTION_ZH: Record<string, string> = { Iced: '加冰', 'Extra shot': '加一份浓缩' };

/** "Large · Iced · Extra shot · Sweetness 30%" (zh: "大杯 · 加冰 · 加一份浓缩 · 甜度 30%") */
export function lineSummary(ctx: AppContext, line: CartLine): string {
  const parts: string[] = [];
  const size = SIZES.find((s) => s.id === line.size);
  if (size) parts.push(tr(ctx, size.id, size.zh));
  parts.push(...line.options.map((o) => tr(ctx, o, OPTION_ZH[o] ?? o)));
  if (line.sweetness !== undefined) parts.push(`${tr(ctx, 'Sweetness', '甜度')} ${line.sweetness}%`);
  return parts.join(' · ');
}

/** A cart line's item name in this locale (the line keeps the item's full name as data). */
function lineName(ctx: AppContext, line: CartLine): string {
  const item = findItem(ctx.world, line.itemId);
  return item ? localName(ctx, item) : line.name;
}

function header(title: string): View {
  return { kind: 'text', id: 'title', text: title, size: 'title', bold: true };
}

export function cartScreen(ctx: AppContext): AppScreen {
  const { world } = ctx;
  const rows: View[] = world.cart.map((line, index) => {
    const setQty = (qty: number) => {
      if (qty <= 0) world.cart.splice(index, 1);
      else line.qty = qty;
    };
    const summary = lineSummary(ctx, line);
    return {
      kind: 'column',
      id: 'cart_line',
      padding: 8,
      gap: 4,
      children: [
        { kind: 'text', id: 'line_name', text: lineName(ctx, line), size: 'body', bold: true },
        ...(summary
          ? [{ kind: 'text', id: 'line_options', text: summary, size: 'small', color: '#666666' } as View]
          : []),
        {
          kind: 'row',
          gap: 8,
          children: [
            {
              kind: 'button',
              id: 'line_minus',
              text: '−',
              desc: tr(ctx, 'Decrease', '减少'),
              style: 'secondary',
              onTap: () => setQty(line.qty - 1),
            },
            { kind: 'text', id: 'line_qty', text: String(line.qty), size: 'body' },
            {
              kind: 'button',
              id: 'line_plus',
              text: '+',
              desc: tr(ctx, 'Increase', '增加'),
              style: 'secondary',
              onTap: () => setQty(line.qty + 1),
            },
            { kind: 'text', id: 'line_total', text: `¥${line.unitPrice * line.qty}`, size: 'body', weight: 2 },
          ],
        },
      ],
    };
  });
  if (rows.length === 0)
    rows.push({ kind: 'text', id: 'empty', text: tr(ctx, 'Your cart is empty', '购物车是空的'), size: 'body' });
  return {
    activity: '.CartActivity',
    title: tr(ctx, 'Cart', '购物车'),
    root: {
      kind: 'column',
      padding: 16,
      gap: 12,
      children: [
        header(tr(ctx, 'Cart', '购物车')),
        { kind: 'list', id: 'cart_lines', gap: 8, height: 'fill', children: rows },
        {
          kind: 'text',
          id: 'total',
          text: `${tr(ctx, 'Total', '合计')} ¥${cartTotal(world.cart)}`,
          size: 'large',
          bold: true,
        },
        {
          kind: 'button',
          id: 'checkout',
          text: tr(ctx, 'Checkout', '去结算'),
          style: 'primary',
          enabled: world.cart.length > 0,
          onTap: () => ctx.navigate('.CheckoutActivity'),
        },
      ],
    },
  };
}

/**
 * The order review: where it goes, what is in it, the total. The payment method is chosen on the
 * payment page (the cashier, as Taobao/JD/Alipay do), so this page holds no payment words but the
 * button that leads there — a model cannot take it for the payment page.
 */
export function checkoutScreen(ctx: AppContext): AppScreen {
  const { world } = ctx;
  const shop = foodShopData(world);
  const lines: View[] = world.cart.map((line) => ({
    kind: 'text',
    id: 'checkout_line',
    text: `${line.qty} × ${lineName(ctx, line)}${line.size ? ` (${lineSummary(ctx, line)})` : ''} — ¥${line.unitPrice * line.qty}`,
    size: 'body',
  }));
  return {
    activity: '.CheckoutActivity',
    title: tr(ctx, 'Checkout', '确认订单'),
    root: {
      kind: 'column',
      padding: 16,
      gap: 12,
      children: [
        header(tr(ctx, 'Checkout', '确认订单')),
        { kind: 'text', text: tr(ctx, 'Deliver to', '配送地址'), size: 'small', color: '#666666' },
        { kind: 'text', id: 'address', text: pickName(ctx, shop.address), size: 'body' },
        { kind: 'list', id: 'checkout_lines', gap: 6, height: 'fill', children: lines },
        {
          kind: 'text',
          id: 'total',
          text: `${tr(ctx, 'Total', '合计')} ¥${cartTotal(world.cart)}`,
          size: 'large',
          bold: true,
        },
        // It opens the payment page and places nothing (orders stay empty until Pay): labelled for
        // what it does, as Ele.me's 去支付 is, so a model does not take the review page for payment.
        {
          kind: 'button',
          id: 'to_payment',
          text: tr(ctx, 'Continue to payment', '去支付'),
          style: 'primary',
          enabled: world.cart.length > 0,
          onTap: () => ctx.navigate('.PaymentActivity'),
        },
      ],
    },
  };
}

/** Records the order and the payment, clears the cart; events go in the order ordered → paid. */
export function pay(ctx: AppContext): number | undefined {
  const { world } = ctx;
  if (world.cart.length === 0) return undefined;
  const at = ctx.clock.now();
  const total = cartTotal(world.cart);
  const orderId = 1001 + world.orders.length;
  const lines = world.cart.map((l) => ({ ...l, options: [...l.options] }));
  world.orders.push({ id: orderId, lines, total, status: 'paid', at });
  recordEvent(world, { kind: 'ordered', app: FOODSHOP_PACKAGE, at, detail: { orderId, total, lines: lines.length } });
  const { method } = foodShopData(world);
  world.payments.push({ orderId, amount: total, method, at });
  recordEvent(world, { kind: 'paid', app: FOODSHOP_PACKAGE, at, detail: { orderId, amount: total, method } });
  world.cart.splice(0, world.cart.length);
  return orderId;
}

/** The payment methods as radio buttons: the saved card and the wallets; one is selected. */
function methodChoices(ctx: AppContext): View[] {
  const shop = foodShopData(ctx.world);
  const options = [
    { id: 'method_card', text: `${tr(ctx, 'Saved card', '已保存的银行卡')} ${shop.card}`, value: shop.card },
    { id: 'method_wechat', text: pickName(ctx, WALLETS[0]), value: WALLETS[0] },
    { id: 'method_alipay', text: pickName(ctx, WALLETS[1]), value: WALLETS[1] },
  ];
  return options.map(
    (o): View => ({
      kind: 'checkbox',
      className: 'android.widget.RadioButton',
      id: o.id,
      text: o.text,
      checked: shop.method === o.value,
      onToggle: () => {
        shop.method = o.value;
      },
    }),
  );
}

export function paymentScreen(ctx: AppContext, onPaid: (orderId: number) => void): AppScreen {
  const { world } = ctx;
  const total = cartTotal(world.cart);
  return {
    activity: '.PaymentActivity',
    title: tr(ctx, 'Payment', '支付'),
    root: {
      kind: 'column',
      padding: 16,
      gap: 16,
      children: [
        header(tr(ctx, 'Payment', '支付')),
        { kind: 'text', text: tr(ctx, 'Amount due', '应付金额'), size: 'body', color: '#666666' },
        { kind: 'text', id: 'amount', text: `¥${total}`, size: 'title', bold: true },
        { kind: 'text', id: 'method', text: tr(ctx, 'Pay with', '支付方式'), size: 'body', bold: true },
        ...methodChoices(ctx),
        { kind: 'column', children: [], height: 'fill' },
        {
          kind: 'button',
          id: 'pay',
          text: `${tr(ctx, 'Pay', '确认支付')} ¥${total}`,
          style: 'primary',
          enabled: world.cart.length > 0,
          onTap: () => {
            const orderId = pay(ctx);
            if (orderId !== undefined) onPaid(orderId);
          },
        },
      ],
    },
  };
}

export function orderDoneScreen(ctx: AppContext, orderId: number, processing: boolean): AppScreen {
  return {
    activity: '.OrderDoneActivity',
    title: tr(ctx, 'Order', '订单'),
    loading: processing,
    root: {
      kind: 'column',
      padding: 24,
      gap: 16,
      children: [
        header(tr(ctx, 'Payment successful', '支付成功')),
        { kind: 'text', id: 'order_id', text: `${tr(ctx, 'Order', '订单号')} #${orderId}`, size: 'body' },
        {
          kind: 'button',
          id: 'back_to_menu',
          text: tr(ctx, 'Back to menu', '返回菜单'),
          style: 'secondary',
          onTap: () => ctx.replace('.MenuActivity'),
        },
      ],
    },
  };
}
