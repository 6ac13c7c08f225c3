import path from 'node:path';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Command } from 'commander';
import { openDevice } from '../../compose/device.js';
import { modelConfigured } from '../../compose/model.js';
import { RealClock } from '../../core/clock.js';
import { ActionableError } from '../../core/errors.js';
import { Logger } from '../../core/logger.js';
import { McpCallLog } from '../../mcp/call-log.js';
import { startHttpMcp } from '../../mcp/http.js';
import { parseOrigins } from '../../mcp/origin.js';
import { createMcpServer } from '../../mcp/server.js';
import { DeviceSession } from '../../mcp/session.js';
import type { TaskFactory, TaskLaunch } from '../../mcp/task-factory.js';
import { deviceLockKey } from '../../store/device-lock.js';
import { type AgentFlags, deviceSpec, launchRecord } from '../compose.js';
import { exitWith } from './run.js';

/**
 * `phone-agent mcp`: the agent and its tools as an MCP server — stdio by default (a client
 * spawns it), `--http --port P` for the streamable HTTP transport on 127.0.0.1 with a bearer
 * token. The device is connected once and shared by task runs and direct tools under one lock.
 */

interface McpFlags extends AgentFlags {
  http?: boolean;
  port: string;
  httpToken?: string;
  allowOrigin?: string;
  callLog?: string;
}

const VERSION = '0.1.0';

/** Task runs compose through the one factory, on the server's own device unless they name another. */
function taskFactory(flags: McpFlags, session: DeviceSession, logger: Logger): TaskFactory {
  const own = (l: TaskLaunch) =>
    (l.device === undefined || l.device === flags.device) && (l.locale === undefined || l.locale === flags.locale);
  const flagsFor = (l: TaskLaunch): AgentFlags => ({
    ...flags,
    device: l.device ?? flags.device,
    locale: l.locale ?? flags.locale,
  });
  let fresh = 0;
  return {
    runsDir: path.resolve(flags.runsDir),
    lockKey: (l) => {
      if (own(l)) return session.deps.lockKey;
      const device = l.device ?? flags.device;
      // Another language on the virtual phone is a new phone of this run's own.
      return device === 'sim' ? `sim-${process.pid}-task${++fresh}` : deviceLockKey(device);
    },
    record: (l) => launchRecord(flagsFor(l)),
    spec: (l) => ({
      device: own(l) ? { kind: 'connected', device: session.deps.device, keepOpen: true } : deviceSpec(flagsFor(l)),
      model: { model: flags.model, baseUrl: flags.baseUrl, preset: flags.preset },
      memory: { file: flags.memory },
      clock: session.deps.clock,
      logger,
    }),
    // A run moves the screen: the direct tools' revisions would describe a screen that is gone.
    afterRun: (l) => {
      if (own(l)) session.revisions.clear();
    },
  };
}

export async function mcpCommand(flags: McpFlags): Promise<number> {
  const port = Number(flags.port);
  if (flags.http && (!Number.isInteger(port) || port < 0 || port > 65_535))
    throw new ActionableError(
      'USAGE',
      `--port ${flags.port} is not a port number`,
      'e.g. --port 8765 (0 picks a free one)',
    );
  const clock = new RealClock();
  const logger = new Logger('mcp', { level: flags.verbose ? 'info' : 'warn' });
  const { device, close } = await openDevice(deviceSpec(flags), { clock, logger });
  const session = new DeviceSession({
    device,
    deviceId: flags.device,
    lockKey: deviceLockKey(flags.device),
    clock,
    logger,
  });
  // Without a model, mobile_run_task could only fail: it is not offered (the direct tools are).
  const withModel = modelConfigured({ model: flags.model, baseUrl: flags.baseUrl, preset: flags.preset }, process.env);
  if (!withModel)
    process.stderr.write(
      'phone-agent mcp: no model configured, so mobile_run_task is not offered (pass --model/--base-url or set PHONE_AGENT_MODEL and OPENAI_BASE_URL); the direct tools are\n',
    );
  const tasks = withModel ? taskFactory(flags, session, logger) : undefined;
  const secrets = [flags.token, flags.httpToken, process.env.ANDROID_BRIDGE_TOKEN, process.env.PHONE_AGENT_MCP_TOKEN];
  const callLog = flags.callLog
    ? new McpCallLog(path.resolve(flags.callLog), { secrets: secrets.filter((v): v is string => !!v), logger })
    : undefined;
  const newServer = () => createMcpServer({ session, tasks, logger, version: VERSION, callLog });
  const stop = async () => {
    await callLog?.flush();
    await close().catch(() => {});
  };

  if (flags.http) {
    const allowedOrigins = flags.allowOrigin
      ? parseOrigins(flags.allowOrigin, '--allow-origin')
      : parseOrigins(process.env.PHONE_AGENT_MCP_ORIGINS, 'PHONE_AGENT_MCP_ORIGINS');
    const h = await startHttpMcp({
      port,
      token: flags.httpToken ?? process.env.PHONE_AGENT_MCP_TOKEN,
      newServer,
      allowedOrigins,
    });
    // The one place the token is shown: the person starting the server needs it for the client.
    process.stderr.write(`phone-agent mcp: listening on ${h.url}\n`);
    if (!flags.httpToken && !process.env.PHONE_AGENT_MCP_TOKEN) process.stderr.write(`bearer token: ${h.token}\n`);
    process.stdout.write(`${JSON.stringify({ url: h.url, device: flags.device })}\n`);
    await new Promise<void>((ok) => {
      process.once('SIGINT', ok);
      process.once('SIGTERM', ok);
    });
    await h.close();
    await stop();
    return 0;
  }

  const server = newServer();
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((ok) => {
    transport.onclose = () => ok();
    process.stdin.once('end', () => ok());
    process.once('SIGTERM', () => ok());
  });
  await server.connect(transport);
  await closed;
  await server.close().catch(() => {});
  await stop();
  return 0;
}

export function register(program: Command): void {
  program
    .command('mcp')
    .description('Serve the agent and its phone tools over MCP (stdio; --http for streamable HTTP on 127.0.0.1)')
    .option('--http', 'serve the streamable HTTP transport on 127.0.0.1 instead of stdio')
    .option('--port <port>', 'HTTP port (0: a free one)', '8765')
    .option(
      '--http-token <token>',
      'bearer token clients must send (env PHONE_AGENT_MCP_TOKEN; default: generated and printed)',
    )
    .option(
      '--allow-origin <origins>',
      "browser origins allowed besides the server's own, comma-separated (env PHONE_AGENT_MCP_ORIGINS); any other Origin gets 403",
    )
    .option(
      '--call-log <file>',
      'append one JSON line per tool call served (tool, arguments with typed text reduced to its length, ms, the content returned)',
    )
    .option('--device <sim|URL|SERIAL>', 'sim (built-in virtual phone), a helper bridge URL, or an adb serial', 'sim')
    .option('--token <token>', 'helper bridge token for --device http://… (env ANDROID_BRIDGE_TOKEN)')
    .option('--model <name>', 'model for mobile_run_task, or "reference" (env PHONE_AGENT_MODEL)')
    .option('--base-url <url>', 'OpenAI-compatible endpoint (env OPENAI_BASE_URL)')
    .option('--preset <name>', 'openai | deepseek | qwen | ollama | vllm')
    .option('--runs-dir <dir>', 'where run folders go', 'runs')
    .option('--memory <file>', 'page memory file (verified replay cache)', '.phone-agent/page-memory.json')
    .option('--seed <n>', 'virtual phone seed', '1')
    .option('--locale <en|zh>', 'virtual phone language', 'en')
    .option('--adb-host <host>', 'adb server host', '127.0.0.1')
    .option('--adb-port <port>', 'adb server port', '5037')
    .option('--verbose', 'log to stderr')
    .action((flags: McpFlags) => exitWith('mcp', flags, () => mcpCommand(flags)));
}
