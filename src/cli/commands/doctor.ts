import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Command } from 'commander';
import OpenAI from 'openai';
import { ActionableError, errorMessage } from '../../core/errors.js';
import { type LlmConfig, resolveLlmConfig } from '../../planner/llm/config.js';
import { adbDevices, adbServer, adbServerFlags, adbVersion, probeBridge } from '../probe.js';

/**
 * `phone-agent doctor`: is this machine ready to drive a phone? adb and its server, each device
 * (API level, screen, input method), a helper bridge and its token, the model endpoint (one tiny
 * request, only when one is configured) and a CJK font. Every line that is not ok says what to do;
 * the exit code is 1 when something needed is missing.
 */

export interface DoctorFlags {
  device?: string[];
  token?: string;
  model?: string;
  baseUrl?: string;
  preset?: string;
  adbHost?: string;
  adbPort?: string;
}

type Level = 'ok' | 'warn' | 'fail' | 'skip';
export interface Check {
  level: Level;
  name: string;
  detail: string;
  fix?: string;
}

const run = promisify(execFile);

async function adbChecks(flags: DoctorFlags): Promise<Check[]> {
  const out: Check[] = [];
  const v = await adbVersion();
  out.push(
    v.ok
      ? { level: 'ok', name: 'adb', detail: v.version }
      : {
          level: 'warn',
          name: 'adb',
          detail: 'not found on PATH',
          fix: 'install it for phones over USB or Wi-Fi (Debian: apt-get install adb); --device sim needs none',
        },
  );
  const server = adbServer(flags);
  const where = `${server.host}:${server.port}`;
  const list = await adbDevices(server);
  if (!list.ok) {
    out.push({
      level: 'warn',
      name: 'adb server',
      detail: `${where} does not answer (${list.message})`,
      fix: `start it with \`adb start-server\`${server.port !== 5037 ? ` (ANDROID_ADB_SERVER_PORT=${server.port})` : ''}; --device sim needs none`,
    });
    return out;
  }
  out.push({
    level: 'ok',
    name: 'adb server',
    detail: `${where}, ${list.devices.length} device${list.devices.length === 1 ? '' : 's'}`,
  });
  if (!list.devices.length)
    out.push({
      level: 'warn',
      name: 'devices',
      detail: 'none attached',
      fix: 'plug a phone in with USB debugging on (or `adb connect HOST:PORT`), then `adb devices`',
    });
  for (const d of list.devices) {
    const name = `device ${d.serial}`;
    if (d.state !== 'device') {
      const fix =
        d.state === 'unauthorized'
          ? 'accept the USB debugging prompt on the phone'
          : d.state === 'offline'
            ? 'reconnect it (`adb reconnect`)'
            : 'check the cable and `adb devices`';
      out.push({ level: 'fail', name, detail: `state ${d.state}`, fix });
      continue;
    }
    if (d.error) {
      out.push({
        level: 'fail',
        name,
        detail: `does not answer a shell command (${d.error})`,
        fix: 'reconnect it (`adb reconnect`) and try again',
      });
      continue;
    }
    out.push({
      level: 'ok',
      name,
      detail: `${d.model || 'Android'} · Android ${d.release || '?'} (API ${d.api || '?'}) · screen ${d.screen ?? 'unknown'}`,
    });
    out.push(
      d.unicodeIme
        ? { level: 'ok', name: `  input method`, detail: `${d.ime} types any text` }
        : {
            level: 'warn',
            name: `  input method`,
            detail: `${d.ime || 'unknown'}: ASCII text only over adb`,
            fix: "install and select ADBKeyboard (com.android.adbkeyboard/.AdbIME) or the helper's IME to type other scripts",
          },
    );
  }
  return out;
}

async function bridgeChecks(flags: DoctorFlags): Promise<Check[]> {
  const urls = [
    ...(flags.device ?? []),
    ...(process.env.ANDROID_BRIDGE_URL ? [process.env.ANDROID_BRIDGE_URL] : []),
  ].filter((u) => /^https?:\/\//.test(u));
  if (!urls.length)
    return [
      {
        level: 'skip',
        name: 'helper',
        detail: 'no bridge URL given',
        fix: 'pass --device http://HOST:PORT --token T to check a helper',
      },
    ];
  const token = flags.token ?? process.env.ANDROID_BRIDGE_TOKEN;
  return Promise.all(
    [...new Set(urls)].map(async (url): Promise<Check> => {
      if (!token)
        return {
          level: 'fail',
          name: `helper ${url}`,
          detail: 'no token',
          fix: 'pass --token T or set ANDROID_BRIDGE_TOKEN',
        };
      const r = await probeBridge(url, token);
      return r.ok
        ? { level: 'ok', name: `helper ${url}`, detail: `answers, token accepted · ${r.detail}` }
        : {
            level: 'fail',
            name: `helper ${url}`,
            detail: r.message,
            fix: 'check that the helper (or `phone-agent sim`) runs there and the token is the one it printed',
          };
    }),
  );
}

async function modelCheck(flags: DoctorFlags): Promise<Check> {
  if (flags.model === 'reference')
    return {
      level: 'ok',
      name: 'model',
      detail: 'the built-in reference model (knows only the catalog: `phone-agent tasks`)',
    };
  let config: LlmConfig;
  try {
    config = resolveLlmConfig({ baseUrl: flags.baseUrl, model: flags.model, preset: flags.preset }, process.env);
  } catch (e) {
    // Nothing is called when nothing is configured.
    return {
      level: 'skip',
      name: 'model',
      detail: e instanceof ActionableError ? (e.message.split(' — ')[0] ?? e.message) : errorMessage(e),
      fix: 'set OPENAI_BASE_URL and PHONE_AGENT_MODEL (and OPENAI_API_KEY for hosted providers), or use --model reference',
    };
  }
  const sdk = new OpenAI({ baseURL: config.baseURL, apiKey: config.apiKey || 'none', maxRetries: 0, timeout: 15_000 });
  try {
    // The smallest request that proves the model answers: one word back.
    await sdk.chat.completions.create({
      model: config.model,
      messages: [{ role: 'user', content: 'Reply with: ok' }],
      max_tokens: 1,
    });
    return { level: 'ok', name: 'model', detail: `${config.baseURL} answers as ${config.model}` };
  } catch (e) {
    return {
      level: 'fail',
      name: 'model',
      detail: `${config.baseURL} (model ${config.model}): ${errorMessage(e)}`,
      fix: 'check that the server runs and the URL, model name and OPENAI_API_KEY are right',
    };
  }
}

async function fontCheck(): Promise<Check> {
  try {
    const { stdout } = await run('fc-list', [':lang=zh', 'family'], { timeout: 5000 });
    const first = stdout.split('\n').find((l) => l.trim());
    if (first) return { level: 'ok', name: 'CJK font', detail: first.trim() };
  } catch {
    /* fc-list missing: same advice */
  }
  return {
    level: 'warn',
    name: 'CJK font',
    detail: 'none found',
    fix: 'the virtual phone draws Chinese text as boxes without one (Debian: apt-get install fonts-wqy-microhei)',
  };
}

export async function doctor(flags: DoctorFlags): Promise<Check[]> {
  const [adb, bridge, model, font] = await Promise.all([
    adbChecks(flags),
    bridgeChecks(flags),
    modelCheck(flags),
    fontCheck(),
  ]);
  return [
    { level: 'ok', name: 'node', detail: process.version },
    { level: 'ok', name: 'virtual phone', detail: 'built in (--device sim)' },
    ...adb,
    ...bridge,
    model,
    font,
  ];
}

const MARK: Record<Level, string> = { ok: 'ok  ', warn: 'warn', fail: 'FAIL', skip: '--  ' };

export function formatChecks(checks: readonly Check[]): string {
  const width = Math.max(...checks.map((c) => c.name.length));
  return checks
    .map(
      (c) =>
        `${MARK[c.level]}  ${c.name.padEnd(width)}  ${c.detail}${c.fix && c.level !== 'ok' ? `\n${' '.repeat(width + 8)}→ ${c.fix}` : ''}`,
    )
    .join('\n');
}

export function register(program: Command): void {
  adbServerFlags(program.command('doctor'))
    .description('Check adb, devices, a helper bridge, the model endpoint and fonts; say what to fix')
    .option('--device <URL|SERIAL...>', 'also check these helper bridge URLs')
    .option('--token <token>', 'helper bridge token (env ANDROID_BRIDGE_TOKEN)')
    .option('--model <name>', 'model name, or "reference" (env PHONE_AGENT_MODEL)')
    .option('--base-url <url>', 'OpenAI-compatible endpoint (env OPENAI_BASE_URL)')
    .option('--preset <name>', 'openai | deepseek | qwen | ollama | vllm')
    .action(async (flags: DoctorFlags) => {
      const checks = await doctor(flags);
      process.stdout.write(`${formatChecks(checks)}\n`);
      process.exitCode = checks.some((c) => c.level === 'fail') ? 1 : 0;
    });
}
