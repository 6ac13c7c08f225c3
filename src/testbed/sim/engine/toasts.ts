/**
 * Toasts as Android shows them: LENGTH_SHORT 2 s, LENGTH_LONG 3.5 s on the phone's clock, and tied
 * to the screen they were shown on — a toast from the product page does not follow the user into
 * the cart. A toast posted by a handler that also navigates (save, then back) belongs to the screen
 * the handler lands on: it is bound at the first read after it was posted, not when it was posted.
 */

export const TOAST_MS = { short: 2000, long: 3500 } as const;
export type ToastLength = keyof typeof TOAST_MS;

export interface ToastEntry {
  id: number;
  value: string;
  pkg: string;
  until: number;
  /** The screen it is shown on (`pkg@serial`), bound at the first read after it was posted. */
  screen?: string;
}

/** The toasts still on screen at `now` on `screen`: expired ones and other screens' ones are gone. */
export function liveToasts(toasts: readonly ToastEntry[], now: number, screen: string): ToastEntry[] {
  const out: ToastEntry[] = [];
  for (const t of toasts) {
    if (t.until <= now) continue;
    t.screen ??= screen;
    if (t.screen === screen) out.push(t);
  }
  return out;
}
