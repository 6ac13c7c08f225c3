import { APPS_PATH, AppsSchema, LIST_APPS_CAPABILITY, type WireApp } from '../../src/device/protocol/apps.js';
import { brief, type Check, expect, expectStatus, poll } from './suite.js';

/** `POST /v3/apps` (PROTOCOL §5): the launcher's apps, each label one that `launch_app` opens. */

async function declared(ctx: Parameters<Check['run']>[0]): Promise<boolean> {
  const has = (await ctx.client.hello()).capabilities.includes(LIST_APPS_CAPABILITY);
  if (!has) ctx.note(`hello does not list ${LIST_APPS_CAPABILITY}: not checked`);
  return has;
}

export const appsChecks: Check[] = [
  {
    name: 'apps: the launcher list parses; an unknown field → 400',
    async run(ctx) {
      if (!(await declared(ctx))) return;
      const r = await ctx.client.post(APPS_PATH, {});
      expect(r.status === 200, `apps: HTTP ${r.status} ${r.text.slice(0, 120)}`);
      const a = AppsSchema.safeParse(r.json);
      expect(a.success, `apps: the answer does not parse: ${a.error?.issues[0]?.message}`);
      expect(a.data.apps.length > 0, 'apps: the list is empty');
      const unnamed = a.data.apps.find((x) => !x.label.trim());
      expect(!unnamed, `apps: an entry without a label: ${brief(unnamed ?? {})}`);
      const bad = await ctx.client.post(APPS_PATH, { packages: true });
      expect(bad.status === 400, `apps with an unknown field: HTTP ${bad.status}, want 400`);
      ctx.note(`${a.data.apps.length} apps`);
    },
  },
  {
    name: 'apps: Settings by the label the list gives → Settings in front',
    async run(ctx) {
      if (!(await declared(ctx))) return;
      const list = AppsSchema.parse((await ctx.client.post(APPS_PATH, {})).json).apps;
      const settings: WireApp | undefined = list.find((x) => /settings/i.test(x.package));
      expect(settings, `apps: no Settings entry among ${brief(list.map((x) => x.package))}`);
      expectStatus(await ctx.client.action({ action: 'key', key: 'home' }), ['completed'], 'key home');
      const r = await ctx.client.action({ action: 'launch_app', label: settings.label });
      expectStatus(r, ['completed'], `launch_app ${JSON.stringify(settings.label)}`);
      await poll(ctx, `${settings.package} in the foreground`, async () => {
        const s = await ctx.client.snapshot();
        return s.foreground.package === settings.package ? s : undefined;
      });
      ctx.note(`"${settings.label}" → ${settings.package}`);
    },
  },
];
