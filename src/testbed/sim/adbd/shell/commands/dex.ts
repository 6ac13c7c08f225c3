import { type Command, fail } from '../command.js';
import { quoteWord } from '../words.js';

/**
 * Java from the shell. A real phone starts a VM and runs the class from the dex on CLASSPATH; the
 * virtual phone runs no dex code, so it answers as a phone does when the class is not there (the
 * component is missing), and says why. Tools that push their own dex (mobilecli's agent, yadb)
 * then fall back or report the failure — as they would on a phone without that class.
 */

const VM_OPTION = /^-(D|X)/;

export const appProcess: Command = async (ctx) => {
  const args = ctx.argv.slice(1);
  const vmOpts = args.filter((a) => VM_OPTION.test(a));
  const rest = args.filter((a) => !VM_OPTION.test(a));
  // app_process [vm-options] cmd-dir [options] start-class-name [main-options]
  const className = rest.slice(1).find((a) => !a.startsWith('-'));
  if (!className) {
    return fail(
      'Error: no class name or --zygote supplied.\nUsage: app_process [java-options] cmd-dir start-class-name [options]\n',
      10,
    );
  }
  const fromOpt = vmOpts.find((o) => o.startsWith('-Djava.class.path='))?.slice('-Djava.class.path='.length);
  const classPath = fromOpt ?? ctx.env?.CLASSPATH ?? '';
  const files = classPath.split(':').filter(Boolean);
  const where = files.length
    ? files.map((f) => `zip file "${f}"${ctx.phone.readFile(f) === undefined ? ' (missing)' : ''}`).join(', ')
    : 'the boot class path';
  return fail(
    `Exception in thread "main" java.lang.ClassNotFoundException: Didn't find class "${className}" on path: DexPathList[[${where}]]\n` +
      'The virtual phone runs no dex code: app_process cannot load classes from pushed files (only its built-in apps run).\n',
    1,
  );
};

/** `nohup CMD…`: runs CMD (there is no hangup to ignore in a one-shot shell session). */
export const nohup: Command = async (ctx) => {
  const args = ctx.argv.slice(1);
  if (args.length === 0) return fail('usage: nohup COMMAND...\n', 125);
  const env = Object.entries(ctx.env ?? {}).map(([k, v]) => `${k}=${quoteWord(v)}`);
  return ctx.run([...env, ...args.map(quoteWord)].join(' '));
};
