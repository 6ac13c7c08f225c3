import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { redactPii } from '../../executor/guardrails/pii.js';
import type { TreeComparison } from './tree-compare.js';

/**
 * verify-device's folder for a bug report: verify.json (every step and item) and verify.html (the
 * same, readable). Details are masked (PII redacted, bounded); no screen text beyond labels, no token.
 */

export type StepStatus = 'pass' | 'warn' | 'fail' | 'skip';

export interface StepItem {
  name: string;
  status: StepStatus;
  detail: string;
}

export interface VerifyStep {
  name: string;
  status: StepStatus;
  detail: string;
  ms: number;
  items?: StepItem[];
}

export interface VerifyReport {
  version: 1;
  serial: string;
  startedAt: string;
  ms: number;
  device?: { manufacturer: string; model: string; androidVersion: string; apiLevel: number };
  helper?: { protocol: number; version: string; capabilities: string[] };
  steps: VerifyStep[];
  tree?: TreeComparison;
}

export const mask = (s: string, max = 300) => {
  const r = redactPii(s);
  return r.length > max ? `${r.slice(0, max - 1)}…` : r;
};

const esc = (s: string) =>
  s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c);

function html(r: VerifyReport): string {
  const row = (status: string, name: string, detail: string) =>
    `<tr class="${status}"><td>${status}</td><td>${esc(name)}</td><td>${esc(detail)}</td></tr>`;
  const steps = r.steps
    .map(
      (s) =>
        `<h2 class="${s.status}">${esc(s.name)} — ${s.status}</h2><p>${esc(s.detail)} (${(s.ms / 1000).toFixed(1)} s)</p>` +
        (s.items?.length
          ? `<table><tr><th>result</th><th>check</th><th>detail</th></tr>${s.items.map((i) => row(i.status, i.name, i.detail)).join('')}</table>`
          : ''),
    )
    .join('\n');
  const d = r.device;
  return `<!doctype html><meta charset="utf-8"><title>verify-device ${esc(r.serial)}</title>
<style>body{font:14px system-ui,sans-serif;margin:2em;max-width:70em}td,th{padding:2px 8px;text-align:left;vertical-align:top}
.fail{color:#b00020}.warn{color:#8a5a00}.pass{color:#1b5e20}.skip{color:#555}table{border-collapse:collapse}tr{border-bottom:1px solid #ddd}</style>
<h1>phone-agent verify-device</h1>
<p>${esc(r.serial)}${d ? ` · ${esc(`${d.manufacturer} ${d.model} · Android ${d.androidVersion} (API ${d.apiLevel})`)}` : ''} · ${esc(r.startedAt)} · ${(r.ms / 1000).toFixed(0)} s</p>
${steps}
`;
}

export async function writeReport(dir: string, r: VerifyReport): Promise<{ json: string; html: string }> {
  await mkdir(dir, { recursive: true });
  const files = { json: path.join(dir, 'verify.json'), html: path.join(dir, 'verify.html') };
  await writeFile(files.json, `${JSON.stringify(r, null, 2)}\n`);
  await writeFile(files.html, html(r));
  return files;
}

/** One line per step, for the terminal. */
export function summary(r: VerifyReport): string {
  const mark: Record<StepStatus, string> = { pass: 'ok  ', warn: 'warn', fail: 'FAIL', skip: '--  ' };
  return r.steps.map((s) => `${mark[s.status]}  ${s.name.padEnd(12)}  ${s.detail}`).join('\n');
}
