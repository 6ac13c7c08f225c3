import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LINE_ID_RE } from '../../src/core/element-ref.js';
import { runScripted, userPrompt } from './support/scripted-run.js';

/**
 * Relay round 2, R1 (NOTE-01): Send tapped by its id, the user approving it, with an expect naming
 * the message field that goes away with the compose page. That is no mis-hit ("hit Send instead of
 * Text message"), an approved send is no mistake to undo, and a read of the result lets done end.
 */

let runsDir: string;
beforeAll(async () => {
  runsDir = await mkdtemp(path.join(tmpdir(), 'pa-approved-send-'));
});
afterAll(async () => {
  await rm(runsDir, { recursive: true, force: true });
});

function idOf(user: string, label: string): string {
  const line = user.split('\n').find((l) => l.includes(`"${label}`) && LINE_ID_RE.test(l));
  const id = line ? LINE_ID_RE.exec(line)?.[1] : undefined;
  if (!id) throw new Error(`no screen line labelled "${label}" in:\n${user}`);
  return id;
}

const TEXT = 'Meet at the north entrance';

describe('an approved Send aimed by id', () => {
  it('is not called a mis-hit on the field its expect names, and done ends after a read', async () => {
    const { run, seen } = await runScripted(
      [
        { __fn: 'plan', subgoals: ['send the text to 15556889650'] },
        { thought: 'open', tool: 'launch_app', package: 'Messages', expect: 'page_changes' },
        (u) => ({ thought: 'new', tool: 'tap', target_id: idOf(u, 'Start chat'), expect: 'page_changes' }),
        (u) => ({
          thought: 'to',
          tool: 'type',
          target_id: idOf(u, 'To'),
          text: '15556889650',
          expect: 'element_state text=15556889650',
        }),
        (u) => ({
          thought: 'body',
          tool: 'type',
          target_id: idOf(u, 'Text message'),
          text: TEXT,
          expect: `element_state text=${TEXT}`,
        }),
        (u) => ({
          thought: 'send',
          tool: 'tap',
          target_id: idOf(u, 'Send'),
          expect: `element_state ${idOf(u, 'Text message')} empty`,
        }),
        { thought: 'sent', tool: 'done', text: 'Sent.' },
        { thought: 'check', tool: 'read', text: TEXT, expect: '-' },
        { thought: 'sent', tool: 'done', text: 'Sent.' },
      ],
      'Text "Meet at the north entrance" to 15556889650.',
      { runsDir, maxSteps: 10 },
    );
    const all = seen.map((_, n) => userPrompt(seen, n)).join('\n');
    expect(all).toMatch(/tap \[[0-9a-f~]+\] "Send"/);
    expect(all).not.toMatch(/instead of "Text message"/);
    expect(all).not.toMatch(/mistakes never put back|undo them/);
    expect(run.status).toBe('done');
  });
});
