import type { PhoneSurface } from '../../surface.js';
import type { ServiceStart } from '../connection.js';
import { COMMANDS } from '../shell/commands/index.js';
import { type OutputSink, readsStdin, runCommandLine, type ShellDeps } from '../shell/interpreter.js';
import type { AdbStream } from '../stream.js';

/**
 * `shell:CMD` (legacy: stdout and stderr merged, no exit code), `exec:CMD` (raw, binary-clean),
 * and `shell,v2,…:CMD` (packets [id u8][len u32le][data]: 1 stdout, 2 stderr, 3 exit code).
 * An empty command is an interactive shell that runs stdin line by line.
 */

const ID_STDIN = 0;
const ID_STDOUT = 1;
const ID_STDERR = 2;
const ID_EXIT = 3;
const ID_CLOSE_STDIN = 4;
const ID_WINDOW_SIZE = 5;

function shellDeps(phone: PhoneSurface): ShellDeps {
  return { phone, commands: COMMANDS };
}

/** Legacy shell and exec: raw bytes, both fds on the one stream, closed when the command ends. */
export function rawShell(phone: PhoneSurface, command: string): ServiceStart {
  return (stream) => {
    const sink: OutputSink = (_fd, data) => void stream.write(data);
    if (command.trim() === '') {
      interactive(stream, phone, sink, () => stream.end());
      return;
    }
    if (readsStdin(command)) {
      // exec-in / piped input: the host closes the stream when its input ends; nothing returns.
      const input: Buffer[] = [];
      stream.onData((d) => void input.push(d));
      stream.onClose(() => void runCommandLine(command, shellDeps(phone), () => {}, Buffer.concat(input)));
      return;
    }
    void runCommandLine(command, shellDeps(phone), sink).finally(() => stream.end());
  };
}

function v2Packet(id: number, data: Buffer): Buffer {
  const head = Buffer.alloc(5);
  head.writeUInt8(id, 0);
  head.writeUInt32LE(data.length, 1);
  return Buffer.concat([head, data]);
}

/** Shell protocol v2: framed output, then the exit code, then close. */
export function shellV2(phone: PhoneSurface, command: string, pty: boolean): ServiceStart {
  return (stream) => {
    // Keep each packet inside one WRTE so no host buffer has to reassemble it.
    const room = Math.max(1, stream.maxPayload - 5);
    const sink: OutputSink = (fd, raw) => {
      // A pty's line discipline turns LF into CRLF on output.
      const data = pty ? Buffer.from(raw.toString('latin1').replace(/\r?\n/g, '\r\n'), 'latin1') : raw;
      for (let off = 0; off < data.length; off += room) {
        void stream.write(v2Packet(fd === 1 ? ID_STDOUT : ID_STDERR, data.subarray(off, off + room)));
      }
    };
    const exit = (code: number) => {
      void stream.write(v2Packet(ID_EXIT, Buffer.of(code & 0xff)));
      stream.end();
    };
    if (command.trim() === '') {
      const stdin = new V2StdinDecoder();
      const lines = new LineFeeder(phone, sink, pty, exit);
      stream.onData(async (data) => {
        for (const p of stdin.push(data)) {
          if (p.id === ID_STDIN) await lines.feed(p.data);
          else if (p.id === ID_CLOSE_STDIN) await lines.finish();
        }
      });
      lines.prompt();
      return;
    }
    if (readsStdin(command)) {
      // Collect stdin until the host closes it, then run (the command would block on it anyway).
      const stdin = new V2StdinDecoder();
      const input: Buffer[] = [];
      let started = false;
      stream.onData((data) => {
        for (const p of stdin.push(data)) {
          if (p.id === ID_STDIN) input.push(p.data);
          else if (p.id === ID_CLOSE_STDIN && !started) {
            started = true;
            void runCommandLine(command, shellDeps(phone), sink, Buffer.concat(input)).then(exit, () => exit(1));
          }
        }
      });
      return;
    }
    void runCommandLine(command, shellDeps(phone), sink).then(exit, () => exit(1));
  };
}

class V2StdinDecoder {
  private buf: Buffer = Buffer.alloc(0);
  push(data: Buffer): { id: number; data: Buffer }[] {
    this.buf = Buffer.concat([this.buf, data]);
    const out: { id: number; data: Buffer }[] = [];
    while (this.buf.length >= 5) {
      const len = this.buf.readUInt32LE(1);
      if (this.buf.length < 5 + len) break;
      const id = this.buf.readUInt8(0);
      if (id !== ID_WINDOW_SIZE) out.push({ id, data: Buffer.from(this.buf.subarray(5, 5 + len)) });
      this.buf = this.buf.subarray(5 + len);
    }
    return out;
  }
}

/** Runs complete lines of an interactive session; `exit` or end of input ends it. */
class LineFeeder {
  private pending = '';
  private done = false;
  private last = 0;

  constructor(
    private readonly phone: PhoneSurface,
    private readonly sink: OutputSink,
    private readonly pty: boolean,
    private readonly onExit: (code: number) => void,
  ) {}

  prompt(): void {
    if (this.pty && !this.done) this.sink(1, Buffer.from(`${this.phone.info.device}:/ $ `));
  }

  async feed(data: Buffer): Promise<void> {
    this.pending += data.toString('utf8');
    let nl = this.pending.search(/\r?\n|\r/);
    while (nl >= 0 && !this.done) {
      const line = this.pending.slice(0, nl);
      this.pending = this.pending.slice(nl + (this.pending.startsWith('\r\n', nl) ? 2 : 1));
      if (this.pty) this.sink(1, Buffer.from(`${line}\r\n`)); // a terminal echoes what was typed
      await this.runLine(line);
      nl = this.pending.search(/\r?\n|\r/);
    }
  }

  async finish(): Promise<void> {
    if (this.pending.trim() && !this.done) await this.runLine(this.pending);
    this.pending = '';
    this.end(this.last);
  }

  private async runLine(line: string): Promise<void> {
    const m = /^\s*exit(?:\s+(\d+))?\s*$/.exec(line);
    if (m) return this.end(m[1] ? Number(m[1]) : this.last);
    if (line.trim()) this.last = await runCommandLine(line, shellDeps(this.phone), this.sink);
    this.prompt();
  }

  private end(code: number): void {
    if (this.done) return;
    this.done = true;
    this.onExit(code);
  }
}

/** Legacy interactive shell: plain lines in, merged output out. */
function interactive(stream: AdbStream, phone: PhoneSurface, sink: OutputSink, end: () => void): void {
  const lines = new LineFeeder(phone, sink, false, end);
  stream.onData((data) => lines.feed(data));
  stream.onClose(() => void lines.finish());
}

/**
 * Parses a shell service name: `shell:CMD`, `shell,v2,TERM=xterm,raw:CMD`, `shell,v2,pty:`.
 * Returns undefined when the name is not a shell service.
 */
export function parseShellService(service: string): { v2: boolean; pty: boolean; command: string } | undefined {
  if (!service.startsWith('shell:') && !service.startsWith('shell,')) return undefined;
  const colon = service.indexOf(':');
  if (colon < 0) return undefined;
  const opts = service.slice(0, colon).split(',').slice(1);
  return { v2: opts.includes('v2'), pty: opts.includes('pty'), command: service.slice(colon + 1) };
}
