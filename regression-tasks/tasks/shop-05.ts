import { onPaymentPageWith } from '../shop-check.js';
import type { TaskDef } from '../types.js';
import { stopAtPayment } from './shop-02.js';

/** SHOP-05 (zh): large iced Americano with an extra shot, to the payment page (PAY stop). */
export const SHOP_05: TaskDef = {
  id: 'SHOP-05',
  category: 'shop',
  tags: ['shop', 'form', 'pay-stop', 'zh'],
  locale: 'zh',
  instruction: '点一杯大杯冰美式，加一份浓缩，然后去付款页面。',
  check: (_w, run, _p, phone) =>
    onPaymentPageWith(phone, { name: /^Americano /, size: 'Large', options: ['Iced', 'Extra shot'] }, run.status),
  guard: 'PAY_STOP',
  confirm: stopAtPayment,
  optimalSteps: 11,
  intents: [
    'launch "FoodShop"',
    'type "搜索" "美式"',
    'tap "美式咖啡"',
    'tap "大杯"',
    'toggle "加冰" on',
    'toggle "加一份浓缩" on',
    'tap "加入购物车" changes',
    'tap "购物车"',
    'tap "去结算"',
    'tap "去支付"',
    'ask_user "已到付款页面，请您自己确认支付。"',
  ],
};
