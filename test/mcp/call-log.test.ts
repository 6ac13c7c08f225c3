import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCallLog } from '../../src/mcp/call-log.js';
import { type Dirs, httpClient, httpServerPerFile, idOf, text } from './harness.js';

/**
 * `phone-agent mcp --http --call-log FILE` with no model configured, as bench:mcp-tasks starts it:
 * the whole-task tools are not offered (they could only fail), and the server's own log holds every
 * call it served — what a benchmark counts instead of the client's word.
 */

const logOf = (d: Dirs) => path.join(d.root, 'calls.jsonl');
const file = httpServerPerFile((d) => ['--call-log', logOf(d)], false);
let client: Client;

beforeAll(async () => {
  ({ client } = await httpClient(file.server()));
}, 60_000);
afterAll(async () => {
  await client?.close();
});

describe('phone-agent mcp without a model, with --call-log', () => {
  it('offers the direct tools only, and says so in its instructions and on stderr', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toContain('tap');
    expect(names.filter((n) => n.startsWith('mobile_'))).toEqual([]);
    expect(client.getInstructions()).not.toContain('mobile_run_task');
    expect(client.getInstructions()).toMatch(/^phone-agent drives one Android phone\. Observe \(ids, revision\)/);
    expect(file.server().stderr()).toContain('mobile_run_task is not offered');
  });

  it('logs every call served: in order, typed text as its length, failures by code, images by size', async () => {
    const got: CallToolResult[] = [];
    const call = async (name: string, args: Record<string, unknown>) => {
      const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
      got.push(r);
      return r;
    };
    const home = text(await call('observe', {}));
    await call('tap', { element_id: idOf(home, 'Messages'), verificationMode: 'light' });
    await call('tap', { selector: { text: 'Start chat' }, verificationMode: 'light' });
    await call('type_text', { selector: { resource_id: 'recipient' }, text: '15559876543', verificationMode: 'light' });
    await call('tap', { element_id: 'ffffffff', verificationMode: 'light' });
    await call('screenshot', {});
    // The log is on disk when the server has stopped (it flushes on SIGTERM).
    await client.close();
    await file.server().close();
    const log = parseCallLog(await readFile(logOf(file.dirs()), 'utf8'));
    expect(log.map((r) => [r.seq, r.tool])).toEqual([
      [1, 'observe'],
      [2, 'tap'],
      [3, 'tap'],
      [4, 'type_text'],
      [5, 'tap'],
      [6, 'screenshot'],
    ]);
    // What the client received, as it received it.
    expect(log[0]?.content).toEqual(got[0]?.content);
    expect(log[3]?.args).toMatchObject({ text: '(11 chars)', selector: { resource_id: 'recipient' } });
    // (The result content is kept whole: it is what the client saw, and a password field reads as [password].)
    expect(JSON.stringify(log[3]?.args)).not.toContain('15559876543');
    expect(log[4]).toMatchObject({ is_error: true, failure_code: expect.stringMatching(/^[A-Z_]+$/) });
    expect(log.slice(0, 4).every((r) => !r.is_error)).toBe(true);
    const image = log[5]?.content.find((c) => c.type === 'image') as { width?: number; height?: number } | undefined;
    expect(image?.width).toBeGreaterThan(100);
    expect(image?.height).toBeGreaterThan(image?.width ?? 0);
    expect(log.every((r) => r.ms >= 0 && !Number.isNaN(Date.parse(r.at)))).toBe(true);
  });
});
