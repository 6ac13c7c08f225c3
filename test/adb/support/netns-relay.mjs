// Runs inside a fresh network namespace (`unshare -n`), where only a loopback exists: listens on
// 127.0.0.1:PORT there and carries each connection to the host's adb server over a Unix socket
// (a file, which a network namespace does not hide), then runs the given command and exits with
// its code. A third-party client started this way can reach the adb server and nothing else.
import { spawn } from 'node:child_process';
import { connect, createServer } from 'node:net';

const [sock, port, sep, ...argv] = process.argv.slice(2);
if (!sock || !port || sep !== '--' || argv.length === 0) {
  process.stderr.write('usage: netns-relay.mjs SOCKET PORT -- COMMAND [ARGS...]\n');
  process.exit(2);
}
const server = createServer((inner) => {
  const outer = connect(sock);
  inner.pipe(outer).pipe(inner);
  inner.on('error', () => outer.destroy());
  outer.on('error', () => inner.destroy());
});
server.listen(Number(port), '127.0.0.1', () => {
  const child = spawn(argv[0], argv.slice(1), { stdio: 'inherit' });
  child.on('error', (err) => {
    process.stderr.write(`netns-relay: cannot run ${argv[0]}: ${err.message}\n`);
    process.exit(127);
  });
  child.on('close', (code, signal) => process.exit(code ?? (signal ? 128 : 1)));
  // Stopping the relay stops what it runs (a daemon must not outlive its test).
  for (const sig of ['SIGTERM', 'SIGINT']) process.on(sig, () => child.kill(sig));
});
