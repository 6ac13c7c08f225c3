import { z } from 'zod';
import type { Device } from '../device/device.js';
import { refuse } from '../executor/dispatch.js';
import { launchOnReads } from '../executor/launch-reads.js';
import { FIELD } from '../planner/act-schema.js';
import type { Tool } from './tool.js';
import { says } from './tool.js';

const PACKAGE_RE = /^[A-Za-z][\w]*(\.[A-Za-z_][\w]*)+$/;

/** What finding an app's icon on the launcher takes: keys, reads, swipes and a tap. */
function canBrowse(dev: Device): boolean {
  const ops = dev.capabilities().ops;
  return (['key', 'snapshot', 'swipe', 'tap'] as const).every((op) => ops.has(op));
}

/** Open an app by its launcher name ("Settings") or its package; a name the device cannot resolve is found on the launcher. */
export const launchApp: Tool = {
  name: 'launch_app',
  explore: 'free',
  help: says('launch_app(package=app name as Apps lists it, or package)'),
  fields: { package: FIELD.string },
  needs: [['launch_app']],
  opensApp: () => 'by_name',
  // An app may be named by its label ("Settings") or its package; `text` is accepted as the label.
  parse: (a) => {
    const name = typeof a.package === 'string' && a.package ? a.package : a.text;
    if (!name)
      return { ok: false, error: "launch_app needs package: the app's name as the launcher shows it, or its package" };
    return { ok: true, action: { text: undefined, package: name.trim() } };
  },
  dispatch: async (ctx, a, _t, _req, d) => {
    const dev = ctx.device;
    const p = a.package ?? (typeof a.args?.package === 'string' ? a.args.package : undefined);
    const label = typeof a.args?.label === 'string' ? a.args.label : a.text;
    if (!p && !label) return { call: refuse(d, 'INVALID_ARGUMENT', 'launch_app needs package (or a label)') };
    // The model names apps as the launcher shows them ("Settings") or by package: a name with no
    // dots is a label, which each backend resolves (the helper by label, adb by the launcher list).
    const byLabel = p !== undefined && !PACKAGE_RE.test(p);
    const name = byLabel ? p : label;
    const call = await dev.launchApp(p && !byLabel ? { package: p } : { label: name }, d);
    // A name the device could not resolve (adb reads no labels) is looked for on the launcher.
    if (name && !call.ok && call.code === 'NOT_FOUND' && call.receipt.delivery === 'not_delivered' && canBrowse(dev))
      return { call: await launchOnReads(dev, ctx.pacer, name, d) };
    return { call };
  },
  mcpDirect: {
    title: 'Launch an app',
    description:
      'Open an app by its package (com.android.settings) or its label as the launcher shows it (Settings, 设置). A label the device cannot resolve by itself (adb reads no labels) is found on the home screen or in the app drawer and tapped.',
    target: 'none',
    fields: { package: z.string().optional(), label: z.string().optional() },
    destructive: false,
    dispatchDefaultMs: 10_000,
    call: (args) => {
      const pkg = typeof args.package === 'string' ? args.package : undefined;
      const label = typeof args.label === 'string' ? args.label : undefined;
      if (!pkg === !label) return { code: 'INVALID_ARGUMENT', message: 'give exactly one of package or label' };
      // The planner's own shape (a name in `package`): one launch_app, whoever calls it.
      const name = (pkg ?? label ?? '').trim();
      return { action: { package: name }, expect: { kind: 'app_foreground', package: name } };
    },
  },
};
