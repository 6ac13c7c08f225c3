import type { Command } from '../command.js';
import { am, monkey } from './am.js';
import { screencap, uiautomator } from './capture.js';
import { appProcess, nohup } from './dex.js';
import { dumpsys } from './dumpsys.js';
import { cat, echo, falseCmd, id, ls, mkdir, mv, rm, sh, sleep, test, touch, trueCmd, whoami } from './files.js';
import { ime } from './ime.js';
import { input } from './input.js';
import { cmd, pm } from './packages.js';
import { getprop, setprop, settings, svc } from './props.js';
import { runAs } from './run-as.js';
import { find, grep, head, tail, wc } from './text.js';
import { wm } from './wm.js';

/** Every command the virtual phone's shell knows; anything else is "not found" (exit 127). */
export const COMMANDS: ReadonlyMap<string, Command> = new Map<string, Command>([
  ['[', test],
  ['am', am],
  ['app_process', appProcess],
  ['app_process64', appProcess],
  ['cat', cat],
  ['cmd', cmd],
  ['dumpsys', dumpsys],
  ['echo', echo],
  ['false', falseCmd],
  ['find', find],
  ['getprop', getprop],
  ['grep', grep],
  ['head', head],
  ['id', id],
  ['ime', ime],
  ['input', input],
  ['ls', ls],
  ['mkdir', mkdir],
  ['monkey', monkey],
  ['mv', mv],
  ['nohup', nohup],
  ['pm', pm],
  ['rm', rm],
  ['run-as', runAs],
  ['screencap', screencap],
  ['setprop', setprop],
  ['settings', settings],
  ['sh', sh],
  ['sleep', sleep],
  ['svc', svc],
  ['tail', tail],
  ['test', test],
  ['touch', touch],
  ['true', trueCmd],
  ['uiautomator', uiautomator],
  ['wc', wc],
  ['whoami', whoami],
  ['wm', wm],
]);
