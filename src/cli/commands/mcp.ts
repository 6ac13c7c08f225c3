import path from 'node:path';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Command } from 'commander';
import { DEFAULT_CONFIG_FILE, loadTaskSettings, type TaskSettings } from '../../agent/task-settings.js';
import { openDevice } from '../../compose/device.js';
import { modelConfigured } from '../../compose/model.js';
import { DEVICES_HELP, parseDevices } from '../../compose/pool/devices-arg.js';
import { type DevicePool, openPool } from '../../compose/pool/pool.js';
import { stfConfig, stfFarm } from '../../compose/pool/stf-pool.js';
import { composePorts } from '../../compose/ports.js';
import { RealClock } from '../../core/clock.js';
import { ActionableError } from '../../core/errors.js';
import { Logger } from '../../core/logger.js';
import { McpCallLog } from '../../mcp/call-log.js';
import { startHttpMcp } from '../../mcp/http.js';
import { parseOrigins } from '../../mcp/origin.js';
import { createMcpServer } from '../../mcp/server.js';
import { DeviceSession } from '../../mcp/session.js';
import type { TaskFactory, TaskLaunch } from '../../mcp/task-factory.js';
import { deviceLockKey, lockDevice } from '../../store/device-lock.js';
import { type AgentFlags, deviceSpec, knowledgeSpec, knowledgeUse, launchRecord } from '../compose.js';
import { isFarmDevice, reserveForCommand, stfOptions } from '../farm.js';
import { adbServer, adbServerFlags } from '../probe.js';
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
  /** A device pool for mobile_run_task (`--devices`, as the suite takes it). */
  devices?: string;
  /** Task settings for mobile_run_task (agent/task-settings.ts). */
  config?: string;
}

const VERSION = '0.1.0';
const ANY = 'any';

/**
 * Task runs compose through the one factory: on a device of the server's pool (`any` free one, or
 * one by id — the default when there is a pool), on the server's own device, or on another
 * `--device` value; each held under its device lock for the run.
 */
function taskFactory(
  flags: McpFlags,
  session: DeviceSession,
  pool: DevicePool | undefined,
  logger: Logger,
  settings: TaskSettings,
): TaskFactory {
  const own = (l: TaskLaunch) =>
    (l.device === undefined || l.device === flags.device) && (l.locale === undefined || l.locale === flags.locale);
  const flagsFor = (l: TaskLaunch): AgentFlags => ({
    ...flags,
    device: l.device ?? flags.device,
    locale: l.locale ?? flags.locale,
  });
  const knowledge = knowledgeUse(flags);
  const common = {
    model: { model: flags.model, baseUrl: flags.baseUrl, preset: flags.preset },
    memory: { file: flags.memory },
    // mobile_run_task reads the front app's knowledge from the store explore_app writes into.
    ...knowledgeSpec(knowledge),
    clock: session.deps.clock,
    logger,
  };
  let fresh = 0;
  return {
    runsDir: path.resolve(flags.runsDir),
    ...(knowledge.kind === 'store' ? { knowledgeDir: knowledge.dir } : {}),
    settings,
    async take(l, command) {
      const fromPool = pool && (l.device === undefined || l.device === ANY || pool.get(l.device) !== undefined);
      if (pool && fromPool) {
        const held = await pool.acquire({
          id: l.device === undefined || l.device === ANY ? undefined : l.device,
          command,
        });
        return {
          device: held.device.id,
          spec: { ...common, device: held.device.spec() },
          record: { ...launchRecord(flags), device: held.device.id },
          release: () => held.lock.release(),
        };
      }
      if (l.device === ANY)
        throw new ActionableError(
          'USAGE',
          'device "any" means a free device of the server\'s pool, and it has none',
          'start `phone-agent mcp` with --devices …, or name a device',
        );
      const device = l.device ?? flags.device;
      // Another language on the virtual phone is a new phone of this run's own.
      const key = own(l)
        ? session.deps.lockKey
        : device === 'sim'
          ? `sim-${process.pid}-task${++fresh}`
          : deviceLockKey(device);
      const lock = await lockDevice(key, { command });
      return {
        device,
        spec: {
          ...common,
          device: own(l) ? { kind: 'connected', device: session.deps.device, keepOpen: true } : deviceSpec(flagsFor(l)),
        },
        record: launchRecord(own(l) ? flags : flagsFor(l)),
        release: () => lock.release(),
      };
    },
    // A run moves the screen: the direct tools' revisions would describe a screen that is gone.
    afterRun: (l) => {
      if (own(l)) session.revisions.clear();
    },
  };
}

/** The server's own device: a farm's is reserved for as long as the server runs. */
async function serverDevice(flags: McpFlags): Promise<{ flags: McpFlags; release: () => Promise<void> }> {
  if (!isFarmDevice(flags.device)) return { flags, release: async () => {} };
  const lease = await reserveForCommand(flags.device, flags);
  return {
    flags: { ...flags, device: `stf:${lease.serial}`, farm: { serial: lease.serial, adbSerial: lease.adbSerial } },
    release: () => lease.release(),
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
  // A bad settings file fails before a device is touched.
  const settings = await loadTaskSettings(flags.config);
  const clock = new RealClock();
  const logger = new Logger('mcp', { level: flags.verbose ? 'info' : 'warn' });
  const entries = flags.devices ? parseDevices(flags.devices) : undefined;
  const pool = entries
    ? await openPool(entries, {
        token: flags.token ?? process.env.ANDROID_BRIDGE_TOKEN,
        adb: adbServer(flags),
        sim: { clock },
        farm: entries.some((e) => e.kind === 'stf') ? stfFarm(stfConfig(flags), adbServer(flags), logger) : undefined,
        logger,
      })
    : undefined;
  const own = await serverDevice(flags).catch(async (e: unknown) => {
    await pool?.close();
    throw e;
  });
  const opened = await openDevice(deviceSpec(own.flags), { clock, logger }).catch(async (e: unknown) => {
    await own.release();
    await pool?.close();
    throw e;
  });
  // The direct tools' executor and perception, composed as the agent's are; no screenshot with
  // every read (observe and screenshot ask for one when a client wants it).
  const ports = composePorts({ device: opened.device, clock, logger, screenshots: false });
  const session = new DeviceSession({
    device: opened.device,
    executor: ports.executor,
    deviceId: own.flags.device,
    lockKey: deviceLockKey(own.flags.device),
    clock,
  });
  // Without a model, mobile_run_task could only fail: it is not offered (the direct tools are).
  const withModel = modelConfigured({ model: flags.model, baseUrl: flags.baseUrl, preset: flags.preset }, process.env);
  if (!withModel)
    process.stderr.write(
      'phone-agent mcp: no model configured, so mobile_run_task is not offered (pass --model/--base-url or set PHONE_AGENT_MODEL and OPENAI_BASE_URL); the direct tools are\n',
    );
  const tasks = withModel ? taskFactory(own.flags, session, pool, logger, settings) : undefined;
  const secrets = [flags.token, flags.httpToken, process.env.ANDROID_BRIDGE_TOKEN, process.env.PHONE_AGENT_MCP_TOKEN];
  const callLog = flags.callLog
    ? new McpCallLog(path.resolve(flags.callLog), { secrets: secrets.filter((v): v is string => !!v), logger })
    : undefined;
  const newServer = () => createMcpServer({ session, tasks, logger, version: VERSION, callLog });
  const stop = async () => {
    await callLog?.flush();
    await opened.close().catch(() => {});
    await own.release();
    await pool?.close();
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
    process.stdout.write(
      `${JSON.stringify({ url: h.url, device: own.flags.device, ...(pool ? { pool: pool.devices.map((d) => d.id) } : {}) })}\n`,
    );
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
    // A farm's devices are given back on the way out.
    process.once('SIGTERM', () => ok());
    process.once('SIGINT', () => ok());
  });
  await server.connect(transport);
  await closed;
  await server.close().catch(() => {});
  await stop();
  return 0;
}

export function register(program: Command): void {
  adbServerFlags(stfOptions(program.command('mcp')))
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
    .option(
      '--device <sim|URL|SERIAL|stf:SERIAL|stf:any>',
      "the direct tools' device: sim (built-in virtual phone), a helper bridge URL, an adb serial, or an STF device",
      'sim',
    )
    .option('--devices <list>', `a device pool for mobile_run_task (device "any" or an id): ${DEVICES_HELP}`)
    .option('--token <token>', 'helper bridge token for --device http://… (env ANDROID_BRIDGE_TOKEN)')
    .option('--model <name>', 'model for mobile_run_task, or "reference" (env PHONE_AGENT_MODEL)')
    .option('--base-url <url>', 'OpenAI-compatible endpoint (env OPENAI_BASE_URL)')
    .option('--preset <name>', 'openai | deepseek | qwen | ollama | vllm')
    .option('--runs-dir <dir>', 'where run folders go', 'runs')
    .option(
      '--config <file>',
      `task settings for mobile_run_task (JSON; default ./${DEFAULT_CONFIG_FILE} when present)`,
    )
    .option('--memory <file>', 'page memory file (verified replay cache)', '.phone-agent/page-memory.json')
    .option(
      '--knowledge-dir <dir>',
      'the knowledge store explore_app writes into and mobile_run_task reads the front app from (env PHONE_AGENT_KNOWLEDGE_DIR, else .phone-agent/knowledge)',
    )
    .option('--no-knowledge', 'mobile_run_task reads no app knowledge; explore_app writes only its map folder')
    .option('--seed <n>', 'virtual phone seed', '1')
    .option('--locale <en|zh>', 'virtual phone language', 'en')
    .option('--verbose', 'log to stderr')
    .action((flags: McpFlags) => exitWith('mcp', flags, () => mcpCommand(flags)));
}
