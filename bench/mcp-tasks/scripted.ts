import path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { openClient, renderResult, writeFinished } from '../mcp-tasks-client.mjs';

/**
 * `--client scripted`: a fixed script per task through the same MCP tools and the same client a
 * model uses (bench/mcp-tasks-client.mjs), reading element ids only from what the client prints —
 * so CI runs the harness end to end. It is a harness test, not a score: a script knows the app.
 */

export interface ScriptContext {
  url: string;
  token: string;
  taskDir: string;
  /** The task's parameters for this seed (what its instruction says, in fields). */
  params: Record<string, string>;
}

/** What a script does with the server: call a tool and read the printed result like a model would. */
class Driver {
  constructor(
    private readonly session: Awaited<ReturnType<typeof openClient>>,
    private readonly imagesDir: string,
  ) {}

  /** A call in the speed the server's instructions recommend; a failure stops the script, named. */
  async call(tool: string, args: Record<string, unknown>): Promise<string> {
    // A sequence takes its mode per member (`defaults`); every other action tool takes it itself.
    const speed = tool === 'run_journey' ? {} : { verificationMode: 'light', responseMode: 'compact' };
    const result = (await this.session.client.callTool({
      name: tool,
      arguments: { ...speed, ...args },
    })) as CallToolResult;
    const text = await renderResult(result, { imagesDir: this.imagesDir, name: tool });
    if (result.isError) throw new Error(`${tool} ${JSON.stringify(args)} failed: ${text.slice(0, 400)}`);
    return text;
  }
}

/**
 * The id on the line that shows `label` (`+ [27a7500e] "Display — …" …`, `[e7a3f2c1] tap …`),
 * as a model would copy it; the delta's text is inside the JSON result, so quotes are escaped there.
 */
const linesOf = (printed: string) => printed.replace(/\\"/g, '"').split(/\\n|\n/);

/** Whether a line of what the tool returned shows `label`. */
export const shows = (printed: string, label: string): boolean => linesOf(printed).some((l) => l.includes(label));

export function idOf(printed: string, label: string): string {
  const lines = linesOf(printed);
  const line = lines.find((l) => /\[[0-9a-f~]+\]/.test(l) && !l.startsWith('-') && l.includes(label));
  const id = line && /\[([0-9a-f~]+)\]/.exec(line)?.[1];
  if (!id) throw new Error(`no element "${label}" in what the tool returned:\n${printed.slice(0, 1500)}`);
  return id;
}

/** A form in one call: each field typed (by the label on its line), then the button tapped. */
function fillThenTap(d: Driver, view: string, fields: [label: string, text: string | undefined][], button: string) {
  return d.call('run_journey', {
    steps: [
      ...fields.map(([label, text]) => ({ tool: 'type_text', args: { element_id: idOf(view, label), text } })),
      { tool: 'tap', args: { element_id: idOf(view, button) } },
    ],
  });
}

type Script = (d: Driver, p: Record<string, string>) => Promise<{ answer?: string } | undefined>;

const SCRIPTS: Record<string, Script> = {
  'SET-06': async (d) => {
    const home = await d.call('launch_app', { label: '设置' });
    const display = await d.call('tap', { element_id: idOf(home, '显示') });
    await d.call('set_slider', { element_id: idOf(display, 'SeekBar'), value: 0 });
    return undefined;
  },
  'SET-03': async (d, p) => {
    const home = await d.call('launch_app', { label: 'Settings' });
    const display = await d.call('tap', { element_id: idOf(home, 'Display') });
    await d.call('set_slider', { element_id: idOf(display, 'SeekBar'), value: Number(p.pct) });
    return undefined;
  },
  'CT-01': async (d, p) => {
    const asked = await d.call('launch_app', { label: 'Contacts' });
    const list = await d.call('tap', { element_id: idOf(asked, '"Allow"') });
    const form = await d.call('tap', { element_id: idOf(list, 'Add') });
    await fillThenTap(
      d,
      form,
      [
        ['"Name"', p.name],
        ['"Phone"', p.phone],
      ],
      '"Save"',
    );
    return undefined;
  },
  'SHOP-03': async (d, p) => {
    const menu = await d.call('launch_app', { label: 'FoodShop' });
    if (shows(menu, '"Later"')) await d.call('tap', { element_id: idOf(menu, '"Later"') });
    // The menu loads after the dialog; the ids as the listing shows them (`#chip_bakery`, `#menu`).
    await d.call('wait_until', { selector: { resource_id: 'chip_bakery' }, condition: 'appears', timeout_ms: 5000 });
    await d.call('tap', { selector: { resource_id: 'chip_bakery' } });
    const found = await d.call('scroll_to', { container: { resource_id: 'menu' }, target: { text: p.item } });
    const product = await d.call('tap', { element_id: idOf(found, `"${p.item} `) });
    await d.call('type_text', { element_id: idOf(product, '"Quantity"'), text: p.n });
    await d.call('tap', { element_id: idOf(product, 'Add to cart') });
    return undefined;
  },
  'LAU-01': async (d, p) => {
    await d.call('launch_app', { label: p.app });
    return undefined;
  },
  'MSG-01': async (d, p) => {
    const threads = await d.call('launch_app', { label: 'Messages' });
    const compose = await d.call('tap', { element_id: idOf(threads, 'Start chat') });
    // The Send tap is guarded: the server asks the user (elicitation), the harness answers as the user.
    await fillThenTap(
      d,
      compose,
      [
        ['"To', p.number],
        ['"Text message"', p.msg],
      ],
      '"Send"',
    );
    return undefined;
  },
};

export const SCRIPTED_TASKS = Object.keys(SCRIPTS);

/** Run the task's script, then say finished the way an external client does (`finish done`). */
export async function runScript(taskId: string, o: ScriptContext): Promise<void> {
  const script = SCRIPTS[taskId];
  if (!script) throw new Error(`no script for ${taskId}: scripted tasks are ${SCRIPTED_TASKS.join(', ')}`);
  const session = await openClient({ url: o.url, token: o.token, taskDir: o.taskDir });
  try {
    const r = await script(new Driver(session, path.join(o.taskDir, 'images')), o.params);
    await writeFinished(o.taskDir, 'done', r?.answer);
  } catch (e) {
    // The harness waits for a finish: a script that failed says so rather than leaving it waiting.
    await writeFinished(o.taskDir, 'ask_user', e instanceof Error ? e.message.slice(0, 200) : String(e));
    throw e;
  } finally {
    await session.close();
  }
}
