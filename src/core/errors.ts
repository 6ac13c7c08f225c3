/**
 * A small error taxonomy. Expected failures (target not found, ambiguous selector, stale token) are
 * values (`ErrorCode` in results); these classes are for things that are broken, and every message
 * says what to do next.
 */

export class PhoneAgentError extends Error {
  override readonly name: string = 'PhoneAgentError';
  readonly code: string;
  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/** An error the user or caller can fix: `hint` says how, and is part of the message. */
export class ActionableError extends PhoneAgentError {
  override readonly name: string = 'ActionableError';
  readonly hint: string;
  constructor(code: string, problem: string, hint: string, options?: { cause?: unknown }) {
    super(code, `${problem} — ${hint}`, options);
    this.hint = hint;
  }
}

/** A deadline ran out; `log` is what the operation had done so far (Playwright-style progress log). */
export class TimeoutError extends PhoneAgentError {
  override readonly name: string = 'TimeoutError';
  readonly log: readonly string[];
  constructor(message: string, log: readonly string[] = [], options?: { cause?: unknown }) {
    super('TIMEOUT', log.length ? `${message}\n  ${log.join('\n  ')}` : message, options);
    this.log = log;
  }
}

/** The run was cancelled (Ctrl-C, MCP cancellation); `log` is what had been done when it stopped. */
export class CancelledError extends PhoneAgentError {
  override readonly name: string = 'CancelledError';
  readonly log: readonly string[];
  constructor(message: string, log: readonly string[] = [], options?: { cause?: unknown }) {
    super('CANCELLED', log.length ? `${message}\n  ${log.join('\n  ')}` : message, options);
    this.log = log;
  }
}

/** Input from outside (a dump, an LLM reply, a protocol request) that does not parse. */
export class InvalidInputError extends PhoneAgentError {
  override readonly name: string = 'InvalidInputError';
  constructor(what: string, detail: string, options?: { cause?: unknown }) {
    super('INVALID_INPUT', `${what}: ${detail}`, options);
  }
}

export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
