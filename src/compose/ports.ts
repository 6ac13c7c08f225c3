import { createDevicePorts, type DevicePorts, type DevicePortsDeps } from '../agent/device-ports.js';

/**
 * A device's ports — the one perceiver and the one executor (DESIGN §2) — built here for every
 * caller: the agent (`composeAgent`) and MCP's direct tools (`phone-agent mcp`), so both act
 * through the same executor configuration and perception.
 */
export function composePorts(spec: DevicePortsDeps): DevicePorts {
  return createDevicePorts({ ...spec, logger: spec.logger.child('executor') });
}
