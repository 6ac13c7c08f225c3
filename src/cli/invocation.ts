/**
 * How the user started this CLI, so that printed hints ("continue with: … resume <dir> --yes") use
 * a command that works for them: `npm run phone-agent --` through the package script, `npx
 * phone-agent` through npm exec (a checkout after `npm ci`), else `phone-agent` (installed on PATH).
 * PHONE_AGENT_COMMAND overrides it (a wrapper script names itself).
 */
export function cliCommand(env: NodeJS.ProcessEnv = process.env): string {
  if (env.PHONE_AGENT_COMMAND) return env.PHONE_AGENT_COMMAND;
  if (env.npm_lifecycle_event === 'phone-agent') return 'npm run phone-agent --';
  if (env.npm_command === 'exec') return 'npx phone-agent';
  return 'phone-agent';
}
