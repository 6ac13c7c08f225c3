import { McpServer, type RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { CallToolResult, RequestId, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { ActionableError, errorMessage } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import type { DeviceCapabilities } from '../device/device.js';
import type { ConfirmationRequest } from '../executor/guardrails/confirm.js';
import type { CallConsent } from './act.js';
import type { McpCallLog } from './call-log.js';
import { CONSENT_SCHEMA, consentMessage } from './consent.js';
import { directTools } from './direct-tools.js';
import { exploreTool } from './explore-tool.js';
import { journeyTool } from './journey.js';
import { nativeTools } from './native-tools.js';
import { observeTools } from './observe-tools.js';
import type { DeviceSession } from './session.js';
import type { TaskFactory } from './task-factory.js';
import { taskTools } from './task-tools.js';
import { type ToolCall, type ToolDef, type ToolOutput, toolError } from './tool.js';

/**
 * `phone-agent mcp`: one McpServer per client connection over the shared DeviceSession (one
 * device, one lock, one set of snapshot revisions). Every tool answers with a value — a bad
 * argument, an unknown or stale element, a busy device — and the server stays up.
 */

/** What a client is told first; the whole-task tools are named only where the server has them. */
export function serverInstructions(withTasks: boolean): string {
  return `phone-agent drives one Android phone. ${withTasks ? 'For a whole task call mobile_run_task. To plan yourself: observe' : 'Observe'} (ids, revision), then tap/type_text/swipe/… by element_id or exact selector, with verificationMode light and responseMode compact for speed; observe since_revision for what changed. A result with delivery_status unknown may have acted: observe before retrying. Pay/send/delete actions need the user's consent.`;
}

const CONSENT_TIMEOUT_MS = 600_000;

export interface McpServerDeps {
  session: DeviceSession;
  /** The whole-task tools (mobile_run_task …), only where a model is configured to run them. */
  tasks?: TaskFactory;
  logger: Logger;
  version: string;
  /** Every tool call served, as JSON lines (`--call-log`). */
  callLog?: McpCallLog;
}

/**
 * Every tool the server defines, in listing order; each is listed while the device can run it
 * (`ToolDef.offered`). A journey's members are the action tools the device can run now.
 */
export function allTools(deps: Pick<McpServerDeps, 'tasks'> & { session?: DeviceSession }): ToolDef[] {
  const actions = [...directTools, ...nativeTools];
  const members = () => {
    const caps = deps.session?.deps.device.capabilities();
    return new Map(actions.filter((t) => !caps || offeredOn(t, caps)).map((t) => [t.name, t]));
  };
  return [
    ...(deps.tasks ? [...taskTools(deps.tasks), exploreTool(deps.tasks)] : []),
    ...observeTools,
    ...actions,
    journeyTool(members),
  ];
}

function offeredOn(def: ToolDef, caps: DeviceCapabilities): boolean {
  return def.offered?.(caps) ?? true;
}

function toResult(out: ToolOutput): CallToolResult {
  const content: CallToolResult['content'] = [];
  if (out.text) content.push({ type: 'text', text: out.text });
  if (!out.text || out.withJson) content.push({ type: 'text', text: JSON.stringify(out.result) });
  if (out.image) content.push({ type: 'image', data: out.image.data, mimeType: out.image.mimeType });
  return { content, structuredContent: out.result, ...(out.isError ? { isError: true } : {}) };
}

export function createMcpServer(deps: McpServerDeps): McpServer {
  const server = new McpServer(
    { name: 'phone-agent', version: deps.version },
    { capabilities: { logging: {} }, instructions: serverInstructions(!!deps.tasks) },
  );
  const log = deps.logger.child('mcp');

  // Asked on the tool call's own stream; a person may take a while (the executor's 10 min).
  const askFor =
    (requestId: RequestId) =>
    async (req: ConfirmationRequest): Promise<'approved' | 'denied' | undefined> => {
      if (!server.server.getClientCapabilities()?.elicitation) return undefined;
      try {
        const r = await server.server.elicitInput(
          { message: consentMessage(req), requestedSchema: CONSENT_SCHEMA },
          { relatedRequestId: requestId, timeout: CONSENT_TIMEOUT_MS },
        );
        return r.action === 'accept' && r.content?.approve === true ? 'approved' : 'denied';
      } catch (e) {
        // A client that cannot answer is not a yes.
        log.warn('elicitation failed; treating as not confirmed', { error: errorMessage(e) });
        return 'denied';
      }
    };

  const registered: { def: ToolDef; tool: RegisteredTool }[] = [];
  // The list follows the device: a tool it cannot run is not listed, and a change (the helper
  // failing over to adb, or back) is announced with notifications/tools/list_changed (the SDK
  // sends it on enable/disable once connected).
  const sync = () => {
    const caps = deps.session.deps.device.capabilities();
    for (const r of registered) {
      const want = offeredOn(r.def, caps);
      if (r.tool.enabled === want) continue;
      if (want) r.tool.enable();
      else r.tool.disable();
    }
  };
  for (const def of allTools(deps)) {
    const obj = z.object(def.shape);
    const tool = server.registerTool(
      def.name,
      {
        title: def.title,
        description: def.description,
        inputSchema: def.passthrough ? obj.passthrough() : obj.strict(),
        annotations: {
          title: def.title,
          readOnlyHint: def.readOnly,
          destructiveHint: def.destructive,
          openWorldHint: false,
        },
      },
      async (args: Record<string, unknown>, extra) => {
        const startedAt = Date.now();
        const t0 = performance.now();
        const result = await serve({ deps, log, ask: askFor }, def, args, extra);
        deps.callLog?.record({ tool: def.name, args, startedAt, ms: performance.now() - t0, result });
        return result;
      },
    );
    registered.push({ def, tool });
  }
  sync();
  const unsubscribe = deps.session.onDeviceChange(sync);
  const closed = server.server.onclose;
  server.server.onclose = () => {
    unsubscribe();
    closed?.();
  };
  return server;
}

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** One tool call: the device lock when it touches the phone, and every failure as an answer. */
async function serve(
  ctx: { deps: McpServerDeps; log: Logger; ask: (id: RequestId) => CallConsent['ask'] },
  def: ToolDef,
  args: Record<string, unknown>,
  extra: Extra,
): Promise<CallToolResult> {
  const { deps, log } = ctx;
  const token = extra._meta?.progressToken;
  const call: ToolCall = {
    session: deps.session,
    consent: { ask: ctx.ask(extra.requestId) },
    signal: extra.signal,
    progress:
      token === undefined
        ? undefined
        : (message, progress, total) =>
            extra.sendNotification({
              method: 'notifications/progress',
              params: { progressToken: token, progress, ...(total ? { total } : {}), message },
            }),
  };
  try {
    const out = def.usesDevice
      ? await deps.session.locked(`mcp ${def.name}`, () => def.run(args, call))
      : await def.run(args, call);
    return toResult(out);
  } catch (e) {
    if (e instanceof ActionableError) return toResult(toolError(e.code, e.message, busyFields(e)));
    log.error(`${def.name} failed`, { error: errorMessage(e) });
    return toResult(toolError('INTERNAL', `${def.name} failed: ${errorMessage(e)}; the server is still up`));
  } finally {
    // A call is where a device changes what it can do (a failover): every client's list follows.
    if (def.usesDevice) deps.session.checkDevice();
  }
}

/** A BUSY device dispatched nothing: safe to retry once the holder is done. */
function busyFields(e: ActionableError): Record<string, unknown> {
  return e.code === 'BUSY' ? { delivery_status: 'not_delivered', dispatch_started: false, retryable: true } : {};
}
