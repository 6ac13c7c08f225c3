import type { AppContext } from '../app.js';
import type { View } from '../kit/view.js';
import type { Thread } from '../world.js';

/**
 * One-time-code detection, as Google Messages does it: when a thread's newest message is an
 * incoming text with a verification code, a "Copy code" suggestion chip for that code sits above
 * the reply box. Only the newest message gets the chip, so an older code in the same thread has none.
 */

const CONTEXT_RE = /code|验证码|校验码|动态码|OTP/i;
// 4–8 digits standing alone: not part of a phone number (+1 212-555-0199), a decimal or a longer run.
const CODE_RE = /(?<![\d.+-])(\d{4,8})(?![\d.-]?\d)/;

/** The code in a message that reads like a one-time code, if any. */
export function otpCodeIn(body: string): string | undefined {
  if (!CONTEXT_RE.test(body)) return undefined;
  return CODE_RE.exec(body)?.[1];
}

/** The suggestion chip for the thread's newest message, or nothing. */
export function copyCodeChip(ctx: AppContext, thread: Thread): View | undefined {
  const last = thread.messages[thread.messages.length - 1];
  const code = last?.from === 'them' ? otpCodeIn(last.body) : undefined;
  if (!code) return undefined;
  return {
    kind: 'button',
    id: 'copy_code',
    text: ctx.locale === 'zh' ? `复制验证码 ${code}` : `Copy code ${code}`,
    style: 'secondary',
    // The virtual phone has no clipboard service; the toast is what the user sees.
    onTap: () => ctx.toast(ctx.locale === 'zh' ? '已复制验证码' : 'Code copied'),
  };
}
