import path from 'node:path';

/**
 * How the user started this CLI, so that printed hints ("continue with: … resume <dir> --yes") use
 * a command that works for them: through the package script, `npm run phone-agent --`; through
 * the bin, `npx phone-agent` when npm exec started it (a checkout after `npm ci`) and `phone-agent`
 * otherwise (installed on PATH); from the sources directly, `npx phone-agent`, which works in any
 * checkout. PHONE_AGENT_COMMAND overrides it (a wrapper script names itself). The script name is
 * read from this process's own npm variables, which a parent's npm also sets: the entry file
 * (process.argv[1]) tells which way this process was started.
 */
export function cliCommand(env: NodeJS.ProcessEnv = process.env, entry = process.argv[1] ?? ''): string {
  if (env.PHONE_AGENT_COMMAND) return env.PHONE_AGENT_COMMAND;
  const viaBin = /^phone-agent(\.js)?$/.test(path.basename(entry));
  if (viaBin) return env.npm_lifecycle_event === 'npx' ? 'npx phone-agent' : 'phone-agent';
  if (env.npm_lifecycle_event === 'phone-agent') return 'npm run phone-agent --';
  return 'npx phone-agent';
}
