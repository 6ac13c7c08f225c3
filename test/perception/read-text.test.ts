import { describe, expect, it } from 'vitest';
import { metaEffect } from '../../src/agent/step-meta.js';
import type { Observation } from '../../src/core/types.js';
import { compactView } from '../../src/perception/compact.js';
import { observeTree } from '../../src/perception/observe-tree.js';
import { parseUiautomatorXml } from '../../src/perception/parse-xml.js';
import { MAX_READ_CHARS, readText } from '../../src/perception/read-text.js';
import { parseAct } from '../../src/planner/act-tool.js';
import { REGISTRY } from '../../src/tools/index.js';
import { appWindow, dumpXml, type N } from './xml-builder.js';

function observe(kids: N[]): Observation {
  const r = parseUiautomatorXml(dumpXml([appWindow(kids)]));
  if (!r.ok) throw new Error(r.message);
  return observeTree(r.tree).observation;
}

const ADDRESS = 'The address is 4 Elm Street,\nApartment 12B, Springfield 62704, United States of America';

describe('cut text', () => {
  const o = observe([
    { cls: 'android.widget.TextView', text: ADDRESS, b: [40, 400, 1040, 560] },
    {
      cls: 'android.widget.Button',
      text: 'Payment method · 支付方式: WeChat Pay · 微信支付 (default)',
      b: [40, 700, 1040, 820],
      clickable: true,
    },
  ]);

  // A budget the address does not fit: entries are cut only then (a quiet page shows them whole).
  const tight = { maxTextLine: 60 };

  it('is marked with "…" in the compact view when the text line is over its budget', () => {
    expect(compactView(o)).toContain('United States of America');
    const view = compactView(o, tight);
    // The line break inside the text stays visible as ¶.
    expect(view).toMatch(/"The address is 4 Elm Street, ¶ Apartmen[^"]*…"/);
    expect(view).not.toContain('United States of America');
    expect(view).toMatch(/"Payment method · 支付方式: WeChat[^"]*…"/);
  });

  it('is read in full, line breaks kept: by the text as shown or by id', () => {
    const shown = /"(The address is[^"]*…)"/.exec(compactView(o, tight))?.[1] ?? '';
    expect(readText(o, { text: shown })).toEqual({ ok: true, text: ADDRESS });
    const pay = o.elements.find((e) => e.actionable);
    const r = readText(o, { target_id: pay?.id });
    expect(r.ok && r.text).toBe('Payment method · 支付方式: WeChat Pay · 微信支付 (default)');
    expect(readText(o, { text: 'Nothing like this' })).toMatchObject({ ok: false });
  });

  it('is asked for with the read tool', () => {
    const ok = parseAct(
      { thought: 't', tool: 'read', text: 'The address is 4…' },
      { catalog: REGISTRY.catalog, tools: ['read'], ids: new Set() },
    );
    expect(ok.ok && ok.value.read).toEqual({ target_id: undefined, text: 'The address is 4…' });
    const bad = parseAct(
      { thought: 't', tool: 'read' },
      { catalog: REGISTRY.catalog, tools: ['read'], ids: new Set() },
    );
    expect(bad.ok ? '' : bad.error).toMatch(/read needs target_id, or text/);
  });
});

describe('a read of text that is not whole', () => {
  const PREVIEW = 'Weekend plan — Saturday: farmers market at 9, lunch with Sam, …';
  const o = observe([
    { cls: 'android.widget.TextView', text: PREVIEW, b: [40, 400, 1040, 460] },
    { cls: 'android.widget.TextView', text: 'x'.repeat(MAX_READ_CHARS + 50), b: [40, 500, 1040, 900] },
  ]);
  const note = (target_id: string) =>
    metaEffect({ read: { target_id }, subgoalDone: false } as never, { obs: o, step: 3, subgoalOpen: true })?.entry
      .note ?? '';

  it('an app\'s own "…" (a list row\'s preview) is said to be cut by the app, never "full text"', () => {
    const row = o.elements.find((e) => e.text === PREVIEW);
    expect(readText(o, { target_id: row?.id })).toEqual({ ok: true, text: PREVIEW, cut: 'app' });
    const n = note(row?.id ?? '');
    expect(n).not.toMatch(/full text/);
    expect(n).toBe(`text as the app shows it, cut by the app ("…"; open the item to read the rest): "${PREVIEW}"`);
  });

  it('a text longer than a read returns says so and how to get the rest', () => {
    const long = o.elements.find((e) => e.text.startsWith('xxx'));
    expect(readText(o, { target_id: long?.id })).toMatchObject({ ok: true, cut: 'length' });
    expect(note(long?.id ?? '')).toMatch(
      /^the first 2000 characters \(the text is longer; open the item or scroll it for the rest\)/,
    );
  });
});
