/**
 * One language per locale, as real apps ship: the en locale shows English only, zh Chinese only.
 * (A bilingual label is kinder than any real phone and teaches habits that fail on one.)
 */
export function tr(ctx: { readonly locale?: 'en' | 'zh' }, en: string, zh: string): string {
  return ctx.locale === 'zh' ? zh : en;
}

/** A stored value that carries both names ("WeChat Pay · 微信支付"): the one for this locale. */
export function pickName(ctx: { readonly locale?: 'en' | 'zh' }, both: string): string {
  const [en, zh] = both.split(' · ');
  return (ctx.locale === 'zh' ? zh : en) ?? both;
}
