import { describe, expect, it } from 'vitest';
import { gestureOf, screenSize, toPercent } from '../../src/report/gesture.js';
import type { StepFile } from '../../src/report/index.js';

/** Where a step touched, from what the step file holds (pure; the end-to-end files cover real runs). */

const OBS = [
  'app com.acme.bank/.LoginActivity "Acme" · 1080x2400 (0.45) · keyboard hidden',
  '[e8a9191a] fill EditText "Email" 500,281',
  '[22bdd419] tap Button "Log in" 500,895',
].join('\n');

function record(action: NonNullable<StepFile['decision']>['action'], injectedPx?: { x: number; y: number }): StepFile {
  return {
    step: 1,
    subgoal: '',
    source: 'llm',
    action: action.tool,
    ok: true,
    llm: { calls: 0, promptTokens: 0, completionTokens: 0, reasks: 0, retries: 0, ms: 0 },
    timings: { totalMs: 0, llmMs: 0, deviceMs: 0, overheadMs: 0 },
    pageHash: 'p',
    observation: OBS,
    decision: { thought: '', action, expect: { kind: 'page_changes' } },
    receipt: injectedPx
      ? {
          status: 'completed',
          delivery: 'delivered',
          method: 'bridge',
          injectedPx,
          timings: { startedAt: 0, endedAt: 1 },
        }
      : undefined,
  };
}

describe('gestureOf', () => {
  it('reads the screen size from the observation header', () => {
    expect(screenSize(OBS)).toEqual({ w: 1080, h: 2400 });
    expect(screenSize('no header')).toBeUndefined();
  });

  it('prefers the injected pixel, then the target centre', () => {
    expect(gestureOf(record({ tool: 'tap', target_id: '22bdd419' }, { x: 540, y: 2160 }))).toEqual({
      kind: 'tap',
      at: { x: 500, y: 900 },
      long: false,
    });
    expect(gestureOf(record({ tool: 'long_press', target_id: '22bdd419' }))).toEqual({
      kind: 'tap',
      at: { x: 500, y: 895 },
      long: true,
    });
    expect(gestureOf(record({ tool: 'tap', point: { x: 120, y: 340 } }, { x: 540, y: 2160 }))).toMatchObject({
      at: { x: 120, y: 340 },
    });
  });

  it('draws a swipe 30 % of the screen along its direction, centred on the target', () => {
    expect(gestureOf(record({ tool: 'swipe', direction: 'up', target_id: 'e8a9191a' }))).toEqual({
      kind: 'swipe',
      from: { x: 500, y: 431 },
      to: { x: 500, y: 131 },
    });
  });

  it('marks the target of other actions, and nothing for actions without one', () => {
    expect(gestureOf(record({ tool: 'type', target_id: 'e8a9191a', text: 'x' }))).toEqual({
      kind: 'focus',
      at: { x: 500, y: 281 },
    });
    expect(gestureOf(record({ tool: 'back' }))).toBeUndefined();
    expect(gestureOf(record({ tool: 'tap', target_id: 'not-on-screen' }))).toBeUndefined();
  });
});

describe('toPercent', () => {
  it('maps 0..1000 onto a full-screen screenshot', () => {
    expect(toPercent({ x: 500, y: 250 }, { w: 1080, h: 2400 }, { width: 540, height: 1200 })).toEqual({ x: 50, y: 25 });
  });

  it('shifts for a capture without the status bar (rows missing at the top)', () => {
    const p = toPercent({ x: 500, y: 500 }, { w: 1080, h: 2400 }, { width: 1080, height: 2300 });
    expect(p.y).toBeCloseTo(((1200 - 100) / 2300) * 100, 5);
  });
});
