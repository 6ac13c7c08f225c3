import { type Command, ok, usage } from '../command.js';

/** `ime list [-a] [-s] | enable ID | disable ID | set ID` with Android's messages. */
export const ime: Command = async (ctx) => {
  const [sub, ...rest] = ctx.argv.slice(1);
  const phone = ctx.phone;
  const id = rest.filter((a) => !a.startsWith('-')).pop();
  const known = (x: string) => phone.imes().some((i) => i.id === x);
  switch (sub) {
    case 'list': {
      const all = rest.includes('-a');
      const short = rest.includes('-s');
      const list = phone.imes().filter((i) => all || i.enabled);
      if (short) return ok(list.map((i) => `${i.id}\n`).join(''));
      return ok(
        list
          .map((i) => {
            const [pkg, cls] = i.id.split('/');
            return `${i.id}:\n  mId=${i.id} mSettingsActivityName=null\n  mIsDefaultResId=0x0\n  Service:\n    priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=false\n    ServiceInfo:\n      name=${cls ?? ''}\n      packageName=${pkg ?? ''}\n`;
          })
          .join(''),
      );
    }
    case 'enable':
    case 'disable': {
      if (!id) break;
      if (!known(id)) return { stderr: `Unknown input method ${id} cannot be ${sub}d for user #0\n`, code: 255 };
      const before = phone.imes().find((i) => i.id === id)?.enabled;
      phone.enableIme(id, sub === 'enable');
      const same = before === (sub === 'enable');
      return ok(`Input method ${id}: ${same ? 'already ' : 'now '}${sub}d for user #0\n`);
    }
    case 'set':
      if (!id) break;
      if (!phone.setIme(id))
        return { stderr: `Unknown input method ${id} cannot be selected for user #0\n`, code: 255 };
      return ok(`Input method ${id} selected for user #0\n`);
  }
  return usage(
    'ime <command>:\n  list [-a] [-s]\n  enable [--user <USER_ID>] <ID>\n  disable [--user <USER_ID>] <ID>\n  set [--user <USER_ID>] <ID>\n',
    255,
  );
};
