import type { PhoneSurface } from '../../surface.js';
import type { ServiceResolver } from '../connection.js';
import { helperTarget } from '../helper-app.js';
import { parseShellService, rawShell, shellV2 } from './shell.js';
import { syncService } from './sync.js';
import { tcpService } from './tcp.js';

/** Features we advertise in the CNXN banner: only what is implemented. */
export const FEATURES = ['shell_v2'];

/** A service that writes one message and closes, as a user-build adbd answers `root:`. */
function message(text: string) {
  return async () => (stream: import('../stream.js').AdbStream) => {
    void stream.write(text);
    stream.end();
  };
}

/**
 * `tcp:` reach: on loopback any port of "the phone" (this machine's loopback, as a phone reaches its
 * own); when served beyond loopback only the mapped `forwardPorts`, so a remote adb client cannot
 * use the virtual phone to reach this machine's other local services.
 */
export type TcpReach = 'loopback' | 'mapped-only';

export function serviceResolver(
  phone: PhoneSurface,
  forwardPorts: Record<number, number>,
  tcpReach: TcpReach = 'loopback',
): ServiceResolver {
  return async (service) => {
    const shell = parseShellService(service);
    if (shell) return shell.v2 ? shellV2(phone, shell.command, shell.pty) : rawShell(phone, shell.command);
    if (service.startsWith('exec:')) return rawShell(phone, service.slice(5));
    if (service === 'sync:') return syncService(phone);
    const tcp = /^tcp:(?:(?:localhost|127\.0\.0\.1):)?(\d+)$/.exec(service);
    if (tcp) {
      const port = Number(tcp[1]);
      // The helper app's port, while it runs (installed + its accessibility service enabled).
      const helper = helperTarget(phone, port);
      if (helper !== undefined && forwardPorts[port] === undefined) return tcpService(port, { [port]: helper });
      if (tcpReach === 'mapped-only' && forwardPorts[port] === undefined) return undefined;
      return tcpService(port, forwardPorts);
    }
    if (service === 'root:') return message('adbd cannot run as root in production builds\n')();
    if (service === 'unroot:') return message('adbd not running as root\n')();
    return undefined; // reverse:, jdwp:, framebuffer:, remount:, … are refused
  };
}
