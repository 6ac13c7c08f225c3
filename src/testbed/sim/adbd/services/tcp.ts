import { connect, type Socket } from 'node:net';
import type { ServiceStart } from '../connection.js';

/**
 * `tcp:PORT` (what `adb forward tcp:A tcp:PORT` opens per connection): connect to PORT on "the
 * phone" — this machine's loopback, optionally remapped by `forwardPorts` — and pipe bytes both
 * ways. Socket reads pause until the host acknowledged the previous chunk; host data is
 * acknowledged only once the socket took it, so neither side buffers without bound.
 */
export async function tcpService(
  port: number,
  forwardPorts: Record<number, number>,
): Promise<ServiceStart | undefined> {
  if (!Number.isInteger(port) || port <= 0 || port > 65535) return undefined;
  const target = forwardPorts[port] ?? port;
  const socket = await new Promise<Socket | undefined>((resolve) => {
    const s = connect({ host: '127.0.0.1', port: target });
    s.once('connect', () => resolve(s));
    s.once('error', () => resolve(undefined)); // refused: the OPEN is answered with CLSE
  });
  if (!socket) return undefined;
  socket.setNoDelay(true);
  return (stream) => {
    socket.on('data', (chunk: Buffer) => {
      socket.pause();
      void stream.write(chunk).then(() => socket.resume());
    });
    socket.on('end', () => stream.end());
    socket.on('error', () => stream.end());
    socket.on('close', () => stream.end());
    stream.onData(
      (data) =>
        new Promise<void>((resolve) => {
          if (socket.destroyed || socket.write(data)) resolve();
          else socket.once('drain', () => resolve());
        }),
    );
    stream.onClose(() => socket.destroy());
  };
}
