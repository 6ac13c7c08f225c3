import { HELPER_PACKAGE, HELPER_TOKEN_FILE } from '../../../../../device/protocol/transport.js';
import { helperBinding } from '../../helper-app.js';
import { type Command, fail, ok } from '../command.js';
import { findPackage } from './component.js';

/**
 * `run-as PACKAGE cat FILE`: a debuggable app's private files. Only the helper is debuggable here and
 * its only file is the token its service writes when it starts (gone while the service is off).
 */
export const runAs: Command = async (ctx) => {
  const [pkg, ...cmd] = ctx.argv.slice(1);
  if (!pkg) return fail('run-as: usage: run-as <package-name> [--user <uid>] <command> [<args>]\n');
  if (!findPackage(ctx.phone, pkg)) return fail(`run-as: unknown package: ${pkg}\n`);
  if (pkg !== HELPER_PACKAGE) return fail(`run-as: package not debuggable: ${pkg}\n`);
  const [name, ...files] = cmd;
  if (name !== 'cat' || files.length !== 1)
    return fail(`run-as: exec failed for ${name ?? 'sh'}: the virtual phone runs only \`cat FILE\` as ${pkg}\n`);
  const file = files[0] as string;
  const isToken = [
    HELPER_TOKEN_FILE,
    `./${HELPER_TOKEN_FILE}`,
    `/data/data/${pkg}/${HELPER_TOKEN_FILE}`,
    `/data/user/0/${pkg}/${HELPER_TOKEN_FILE}`,
  ].includes(file);
  const binding = helperBinding(ctx.phone);
  if (!isToken || !binding || !ctx.phone.helperRunning()) return fail(`cat: ${file}: No such file or directory\n`);
  return ok(binding.token);
};
