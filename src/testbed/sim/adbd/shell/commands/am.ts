import type { PhoneSurface } from '../../../surface.js';
import { type Command, type CommandResult, ok, usage } from '../command.js';
import { findPackage, fullActivity, parseComponent, shortComponent } from './component.js';

/**
 * `am start|start-activity|force-stop|kill|broadcast` and `monkey -p PKG … 1`. The broadcast of
 * our IME's base64 action (`ADB_INPUT_B64 --es msg <b64>`) commits Unicode text through the IME,
 * the way ADBKeyboard-style input methods do; a broadcast reports result=0 whoever receives it.
 */

interface Intent {
  action?: string;
  categories: string[];
  data?: string;
  component?: string;
  flags?: string;
  extras: Record<string, string>;
  wait: boolean;
  stopFirst: boolean;
}

function parseIntent(args: string[]): Intent | string {
  const it: Intent = { categories: [], extras: {}, wait: false, stopFirst: false };
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    const next = () => args[++i];
    switch (a) {
      case '-a':
        it.action = next();
        break;
      case '-c':
        it.categories.push(next() ?? '');
        break;
      case '-d':
        it.data = next();
        break;
      case '-n':
        it.component = next();
        break;
      case '-f':
        it.flags = next();
        break;
      case '-W':
        it.wait = true;
        break;
      case '-S':
        it.stopFirst = true;
        break;
      case '--user':
      case '--display':
      case '--windowingMode':
      case '--activityType':
        next();
        break;
      case '--es':
      case '--ei':
      case '--el':
      case '--ef':
      case '--ez':
      case '--eu':
      case '--esa': {
        const k = next();
        const v = next();
        if (k === undefined || v === undefined) return `Error: No value given for ${a}`;
        it.extras[k] = v;
        break;
      }
      default:
        if (a.startsWith('--')) break; // --receiver-foreground, --activity-clear-task, …
        if (a.startsWith('-')) return `Error: Unknown option: ${a}`;
        // A bare argument is a data URI or component, as am accepts.
        if (a.includes('/') && !a.includes(':')) it.component = a;
        else it.data = a;
    }
  }
  return it;
}

function describe(it: Intent): string {
  const parts: string[] = [];
  if (it.action) parts.push(`act=${it.action}`);
  if (it.categories.length) parts.push(`cat=[${it.categories.join(',')}]`);
  if (it.data) parts.push(`dat=${it.data}`);
  parts.push(`flg=${it.flags ?? '0x10000000'}`);
  const c = it.component ? parseComponent(it.component) : undefined;
  if (c) parts.push(`cmp=${shortComponent(c.pkg, c.activity)}`);
  if (Object.keys(it.extras).length) parts.push('(has extras)');
  return `Intent { ${parts.join(' ')} }`;
}

async function start(phone: PhoneSurface, it: Intent): Promise<CommandResult> {
  const head = `Starting: ${describe(it)}\n`;
  const c = it.component ? parseComponent(it.component) : undefined;
  if (!c) {
    if (it.categories.includes('android.intent.category.HOME')) {
      await phone.key('home');
      return ok(head);
    }
    return ok(`${head}Error: Activity not started, unable to resolve ${describe(it)}\n`);
  }
  const pkg = findPackage(phone, c.pkg);
  const wanted = fullActivity(c.pkg, c.activity);
  const activity = pkg?.activities.find((a) => fullActivity(c.pkg, a) === wanted);
  if (!pkg || !activity) {
    // Android exits 0 here too; callers must read the output.
    return ok(`${head}Error type 3\nError: Activity class {${c.pkg}/${wanted}} does not exist.\n`);
  }
  const was = phone.foreground();
  const alreadyTop = was.package === c.pkg && fullActivity(c.pkg, was.activity) === wanted && !it.stopFirst;
  if (it.stopFirst) await phone.forceStop(c.pkg);
  const t0 = phone.clock.now();
  const r = alreadyTop ? ({ ok: true } as const) : await phone.launch(c.pkg, activity);
  if (!r.ok) return ok(`${head}Error: ${r.message}\n`);
  // What Android says when the activity is already the top-most one.
  const warning = alreadyTop
    ? 'Warning: Activity not started, intent has been delivered to currently running top-most instance.\n'
    : '';
  if (!it.wait) return ok(`${head}${warning}`);
  const now = phone.foreground();
  const shown = now.package === c.pkg ? now.activity : activity;
  const took = Math.max(1, Math.round(phone.clock.now() - t0));
  const state = alreadyTop ? 'UNKNOWN (0)' : it.stopFirst || was.package !== c.pkg ? 'COLD' : 'WARM';
  return ok(
    `${head}${warning}Status: ok\nLaunchState: ${state}\nActivity: ${shortComponent(c.pkg, shown)}\nTotalTime: ${took}\nWaitTime: ${took + 3}\nComplete\n`,
  );
}

/** Our IME registers its receiver only while it is the current input method, like ADBKeyboard. */
const AGENT_IME_PACKAGE = 'com.phoneagent.ime';

async function broadcast(phone: PhoneSurface, it: Intent): Promise<CommandResult> {
  const msg = it.extras.msg;
  const receiving = phone.imes().some((i) => i.current && i.id.startsWith(`${AGENT_IME_PACKAGE}/`));
  if (!receiving) {
    // Nobody listens: the sender still sees a completed broadcast, as on a phone.
  } else if (it.action === 'ADB_INPUT_B64' && msg !== undefined) {
    await phone.imeCommit(Buffer.from(msg, 'base64').toString('utf8'));
  } else if (it.action === 'ADB_INPUT_TEXT' && msg !== undefined) {
    await phone.imeCommit(msg);
  } else if (it.action === 'ADB_EDITOR_CODE') {
    await phone.key('enter');
  }
  return ok(`Broadcasting: ${describe({ ...it, flags: it.flags ?? '0x400000' })}\nBroadcast completed: result=0\n`);
}

const AM_USAGE =
  'Activity manager (activity) commands:\n  start-activity [-D] [-N] [-W] [-P <FILE>] [--start-profiler <FILE>]\n  force-stop [--user <USER_ID> | all | current] <PACKAGE>\n  broadcast [--user <USER_ID> | all | current] <INTENT>\n';

export const am: Command = async (ctx) => {
  const [sub, ...rest] = ctx.argv.slice(1);
  const phone = ctx.phone;
  switch (sub) {
    case 'start':
    case 'start-activity': {
      const it = parseIntent(rest);
      return typeof it === 'string' ? usage(it, 255) : start(phone, it);
    }
    case 'broadcast': {
      const it = parseIntent(rest);
      return typeof it === 'string' ? usage(it, 255) : broadcast(phone, it);
    }
    case 'force-stop':
    case 'kill': {
      const pkg = rest.filter((a) => !a.startsWith('--') && a !== '0' && a !== 'all' && a !== 'current').pop();
      if (!pkg) return usage(AM_USAGE, 255);
      if (sub === 'force-stop') await phone.forceStop(pkg);
      return ok();
    }
    case 'get-current-user':
      return ok('0\n');
    default:
      return usage(AM_USAGE, 255);
  }
};

export const monkey: Command = async (ctx) => {
  const args = ctx.argv.slice(1);
  // monkey echoes its arguments several ways before it starts.
  const echo = [
    ...args.map((a) => `  bash arg: ${a}\n`),
    `args: [${args.join(', ')}]\n`,
    ...args.map((a) => ` arg: "${a}"\n`),
  ].join('');
  const pi = args.indexOf('-p');
  const pkg = pi >= 0 ? args[pi + 1] : undefined;
  const p = pkg ? findPackage(ctx.phone, pkg) : undefined;
  if (!p || p.activities.length === 0) {
    return { stdout: `${echo}** No activities found to run, monkey aborted.\n`, code: 252 };
  }
  const t0 = ctx.phone.clock.now();
  await ctx.phone.launch(p.package);
  const took = Math.round(ctx.phone.clock.now() - t0);
  const data = args.filter((_, i) => args[i - 1] === '-p' || args[i - 1] === '-c').map((d) => `data="${d}"\n`);
  return ok(
    `${echo}${data.join('')}Events injected: 1\n## Network stats: elapsed time=${took}ms (0ms mobile, 0ms wifi, ${took}ms not connected)\n`,
  );
};
