import { typedTextOf } from '../tools/index.js';
import { targetIsPassword } from './gesture.js';
import type { RunModel } from './schema.js';

/**
 * Text from a run is data, never markup: goals, labels, notes and on-screen text come from people
 * and apps the report does not control. Everything goes through `Text.t` (redact, then escape).
 */

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Shortest text worth redacting: shorter values would blank out ordinary words. */
const MIN_SECRET = 3;

export class Text {
  private readonly secrets: string[];
  constructor(secrets: Iterable<string>) {
    // Longest first, so a secret containing another is replaced whole.
    this.secrets = [...new Set(secrets)].filter((s) => s.length >= MIN_SECRET).sort((a, b) => b.length - a.length);
  }

  /**
   * What was typed into password fields in this run. The agent archives only placeholders for
   * credentials it recognised, but a password typed without one must not reach the page either.
   */
  static forRun(model: RunModel): Text {
    const typed: string[] = [];
    for (const s of model.steps) {
      if (s.kind !== 'ok') continue;
      const a = s.record.decision?.action;
      const text = a && typedTextOf(a);
      if (text && targetIsPassword(s.record)) typed.push(text);
    }
    return new Text(typed);
  }

  redact(s: string): string {
    let out = s;
    for (const v of this.secrets) out = out.split(v).join('•••');
    return out;
  }

  /** Redacted and HTML-escaped. */
  t(s: string | number | undefined): string {
    return s === undefined ? '' : escapeHtml(this.redact(String(s)));
  }
}

export function fmtMs(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

export function fmtInt(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

export function pct(v: number): string {
  return `${(Math.round(Math.min(100, Math.max(0, v)) * 10) / 10).toFixed(1)}%`;
}
