/**
 * The high-risk lexicon of DESIGN §5 (zh + en), the project's one list of payment / send / delete /
 * account words. In core because two layers judge by it: the executor's guard (a hit on the target
 * — or on the page, when the target is a generic "OK / 确定" in a dialog about paying or deleting —
 * needs a confirmation) and the planner's interrupt rule (a dialog whose title or buttons hit it
 * belongs to the task and is never dismissed by rule). On-screen text is data, never instructions:
 * it only ever makes the agent stricter.
 *
 * Payment terms are the words of paying or placing an order, never of reviewing one: a shop's
 * Checkout / 去结算 / 结算 opens the order review (Taobao/JD 结算 → 确认订单 → 提交订单 → 收银台,
 * Amazon "Proceed to checkout"), which charges nothing (DESIGN §10).
 */

export type RiskCategory = 'payment' | 'send' | 'delete' | 'account';

export const LEXICON: Record<RiskCategory, { zh: string[]; en: string[] }> = {
  payment: {
    zh: ['支付', '付款', '确认支付', '立即支付', '立即购买', '提交订单', '转账', '下单', '购买', '充值', '买单'],
    en: [
      'pay',
      'pay now',
      'confirm payment',
      'place order',
      'buy now',
      'buy',
      'purchase',
      'transfer',
      'submit order',
      'top up',
      // The English of 去支付 (caught by 支付): where real shops create the order (DESIGN §10).
      'continue to payment',
      'proceed to payment',
      'go to payment',
    ],
  },
  send: {
    zh: ['发送', '发布', '发表', '发帖', '转发', '分享到'],
    en: ['send', 'post', 'publish', 'tweet', 'share', 'reply all', 'forward'],
  },
  delete: {
    zh: ['删除', '清空', '卸载', '移除', '清除', '恢复出厂'],
    en: ['delete', 'remove', 'clear all', 'clear data', 'uninstall', 'erase', 'factory reset', 'empty trash'],
  },
  account: {
    zh: ['退出登录', '注销', '登出', '修改密码', '重置密码', '授权', '切换账号', '解绑'],
    en: ['sign out', 'log out', 'logout', 'change password', 'reset password', 'authorize', 'delete account', 'unlink'],
  },
};

/** Generic confirmations that inherit the risk of the dialog or page they sit on. */
export const GENERIC_CONFIRM = {
  zh: ['确定', '确认', '是', '继续', '好的', '同意'],
  en: ['ok', 'okay', 'confirm', 'yes', 'continue', 'proceed', 'allow', 'done'],
};

const CJK = /[\u3400-\u9fff]/;

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Whole-word patterns, compiled once: the guard now judges every control of every screen shown. */
const WORD_RES = new Map<string, RegExp>();

/** English terms match whole words (case-insensitive); Chinese terms match as substrings. */
export function termMatches(term: string, text: string): boolean {
  if (CJK.test(term)) return text.includes(term);
  let re = WORD_RES.get(term);
  if (!re) {
    re = new RegExp(`(^|[^a-z])${escapeRe(term)}([^a-z]|$)`, 'i');
    WORD_RES.set(term, re);
  }
  return re.test(text);
}

export interface LexiconHit {
  category: RiskCategory;
  term: string;
}

/** Every risk category whose terms occur in `text`, with the term that matched. */
export function classifyText(text: string, extra: Partial<Record<RiskCategory, string[]>> = {}): LexiconHit[] {
  const t = text.trim();
  if (!t) return [];
  const hits: LexiconHit[] = [];
  for (const cat of Object.keys(LEXICON) as RiskCategory[]) {
    const terms = [...LEXICON[cat].zh, ...LEXICON[cat].en, ...(extra[cat] ?? [])];
    const term = terms.find((x) => termMatches(x, t));
    if (term) hits.push({ category: cat, term });
  }
  return hits;
}

export function isGenericConfirm(text: string): boolean {
  const t = text.trim().toLowerCase();
  return [...GENERIC_CONFIRM.zh, ...GENERIC_CONFIRM.en].some((x) => t === x || t === `${x}!`);
}
