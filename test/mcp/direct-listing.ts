import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { composePorts } from '../../src/compose/ports.js';
import { Logger } from '../../src/core/logger.js';
import { createMcpServer } from '../../src/mcp/server.js';
import { DeviceSession } from '../../src/mcp/session.js';
import { bridgeRig } from '../executor/helpers.js';

/** The MCP direct tools, by the names clients call them. */
export const DIRECT = ['tap', 'long_press', 'type_text', 'swipe', 'press_key', 'launch_app', 'set_slider'];

/**
 * The direct tools as an MCP SDK client lists them from `phone-agent mcp` on the virtual phone
 * (its real bridge): name, title, description, input schema and annotations, by name.
 */
export async function listedDirectTools(): Promise<Record<string, unknown>> {
  const rig = await bridgeRig();
  try {
    const ports = composePorts({ device: rig.device, clock: rig.clock, logger: Logger.silent(), screenshots: false });
    const session = new DeviceSession({
      device: rig.device,
      executor: ports.executor,
      deviceId: 'listing',
      lockKey: 'listing',
      clock: rig.clock,
    });
    const server = createMcpServer({ session, logger: Logger.silent(), version: 'test' });
    const client = new Client({ name: 'listing-test', version: '1.0.0' });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(a), client.connect(b)]);
    const { tools } = await client.listTools();
    await client.close();
    const out: Record<string, unknown> = {};
    for (const t of tools.filter((t) => DIRECT.includes(t.name)).sort((x, y) => x.name.localeCompare(y.name)))
      out[t.name] = {
        title: t.title,
        description: t.description,
        inputSchema: t.inputSchema,
        annotations: t.annotations,
      };
    return out;
  } finally {
    await rig.close();
  }
}
