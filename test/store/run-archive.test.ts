import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { maskValue } from '../../src/store/mask.js';
import { newRunId, RunArchive } from '../../src/store/run-archive.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'pa-archive-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('the call log of a run folder', () => {
  it('masks credential keys, known secrets and inline images, and keeps token counts', () => {
    const png = `data:image/png;base64,${'A'.repeat(40_000)}`;
    const v = maskValue(
      {
        headers: { Authorization: 'Bearer sk-live-1', 'x-api-key': 'k' },
        apiKey: 'sk-live-2',
        token: 't0k3n',
        usage: { promptTokens: 812, completionTokens: 40 },
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'log in with hunter22' },
              { type: 'image_url', image_url: { url: png } },
            ],
          },
        ],
      },
      ['hunter22'],
    );
    const text = JSON.stringify(v);
    for (const secret of ['sk-live-1', 'sk-live-2', 't0k3n', 'hunter22', 'AAAA']) expect(text).not.toContain(secret);
    expect(text).toContain('"promptTokens":812');
    expect(text).toMatch(/data:image\/png;base64,… \(29 KB, not archived\)/);
    expect(text).toContain('log in with •••');
  });

  it('writes the calls of a step in the order they were recorded, without awaiting each', async () => {
    const a = await RunArchive.create(dir, { secrets: ['s3cr3t-token'] });
    for (let i = 0; i < 20; i++)
      a.record(3, { kind: 'device', command: `tap ${i},${i}`, ok: true, output: { note: 's3cr3t-token' } });
    a.record(0, { kind: 'llm', request: { messages: [] }, response: { ok: true } });
    await a.flush();
    const lines = (await readFile(path.join(dir, 'steps', '003.calls.jsonl'), 'utf8')).trim().split('\n');
    expect(lines.map((l) => JSON.parse(l).command)).toEqual(Array.from({ length: 20 }, (_, i) => `tap ${i},${i}`));
    expect(lines.join('')).not.toContain('s3cr3t');
    expect(JSON.parse(await readFile(path.join(dir, 'steps', '000.calls.jsonl'), 'utf8')).kind).toBe('llm');
  });

  it('names a run by the real time, with an optional task label', () => {
    const at = Date.UTC(2026, 11, 1, 8, 30, 5);
    expect(newRunId(at, () => 0.5)).toBe('20261201T083005Z-7fff');
    expect(newRunId(at, () => 0, 'SHOP-02 s1')).toBe('20261201T083005Z-SHOP-02_s1-0000');
  });
});
