import { tr } from '../kit/locale.js';

type Localized = { readonly locale?: 'en' | 'zh' };

import type { View } from '../kit/view.js';
import { CATEGORIES, type CategoryId, type MenuItem } from './foodshop-menu.js';

/**
 * The menu's category chips (one category, or all) and its "lowest price first" sort switch, as
 * delivery apps offer them. Sorting is stable and keeps the category grouping.
 */

export interface MenuFilter {
  category?: CategoryId;
  byPrice: boolean;
}

export const sortLabel = (ctx: Localized): string => tr(ctx, 'Lowest price first', '价格从低到高');

/** The items to list, in order: of the chosen category only, cheapest first when sorting. */
export function filterMenu(menu: readonly MenuItem[], f: MenuFilter): MenuItem[] {
  const items = menu.filter((i) => !f.category || i.category === f.category);
  if (!f.byPrice) return items;
  const rank = (i: MenuItem) => CATEGORIES.findIndex((c) => c.id === i.category);
  return items
    .map((item, index) => ({ item, index }))
    .sort((a, b) => rank(a.item) - rank(b.item) || a.item.price - b.item.price || a.index - b.index)
    .map((x) => x.item);
}

/** Chips in two rows (All + six categories) and the sort switch; `onChange` re-renders. */
export function filterBar(ctx: Localized, f: MenuFilter, onChange: (next: MenuFilter) => void): View[] {
  const chip = (id: string, text: string, category: CategoryId | undefined): View => ({
    kind: 'checkbox',
    className: 'android.widget.RadioButton',
    id: `chip_${id}`,
    text,
    checked: f.category === category,
    weight: 1,
    onToggle: () => onChange({ ...f, category }),
  });
  const chips: View[] = [
    chip('all', tr(ctx, 'All', '全部'), undefined),
    ...CATEGORIES.map((c) => chip(c.id, tr(ctx, c.en, c.zh), c.id)),
  ];
  return [
    { kind: 'row', id: 'categories', gap: 4, children: chips.slice(0, 4) },
    { kind: 'row', gap: 4, children: chips.slice(4) },
    {
      kind: 'switch',
      id: 'sort_price',
      text: sortLabel(ctx),
      checked: f.byPrice,
      onToggle: (next) => onChange({ ...f, byPrice: next }),
    },
  ];
}
