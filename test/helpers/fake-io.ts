import { PassThrough, Readable, Writable } from 'node:stream';
import type { IO, StopSignal } from '../../src/core/io.js';

export interface FakeIO extends IO {
  out(): string;
  err(): string;
  /** Acts as the reader of stdout going away (`| head`): later writes are dropped. */
  closeStdout(): void;
  /** Acts as a stdout that cannot be written (a full disk): later writes are dropped. */
  failStdout(error: NodeJS.ErrnoException): void;
  /**
   * Acts as a disk with room for `bytes` more bytes of stdout: the write that crosses it is
   * cut there (a torn line), and fails with ENOSPC, as do all after it.
   */
  limitStdout(bytes: number): void;
  /** Delivers a signal to whatever listens, as Ctrl-C or a service manager would. */
  signal(signal: StopSignal): void;
}

export function fakeIO(options: { tty?: boolean; stdin?: string; columns?: number } = {}): FakeIO {
  let out = '';
  let err = '';
  let closed = false;
  let failure: NodeJS.ErrnoException | undefined;
  let room = Infinity;
  const listeners = new Set<(signal: StopSignal) => void>();
  const tty = options.tty ?? false;
  /** A terminal for questions (tty only): the keys are stdin's text, what it draws is stderr's. */
  let terminal: { input: NodeJS.ReadableStream; output: NodeJS.WritableStream } | undefined;
  return {
    get terminal() {
      if (!tty) return undefined;
      if (!terminal) {
        const input = new PassThrough();
        input.end(options.stdin ?? '');
        const output = new Writable({
          write(chunk: Buffer, _encoding, done) {
            err += chunk.toString('utf8');
            done();
          },
        });
        terminal = { input, output };
      }
      return terminal;
    },
    stdout: {
      writeSettled(text: string) {
        return Promise.resolve(this.write(text));
      },
      write: (text: string) => {
        if (closed) return 0;
        const bytes = Buffer.from(text);
        if (bytes.length <= room) {
          out += text;
          room -= bytes.length;
          return bytes.length;
        }
        // What fits is written, and the disk is then full.
        const written = room;
        out += bytes.subarray(0, written).toString('utf8');
        closed = true;
        failure = Object.assign(new Error('ENOSPC: no space left on device, write'), {
          code: 'ENOSPC',
        });
        return written;
      },
    },
    stderr: {
      write: (text: string) => {
        err += text;
        return Buffer.byteLength(text);
      },
      writeSettled: (text: string) => {
        err += text;
        return Promise.resolve(Buffer.byteLength(text));
      },
    },
    stdin: Readable.from(options.stdin === undefined ? [] : [options.stdin]),
    stdoutIsTTY: tty,
    stderrIsTTY: tty,
    stdinIsTTY: tty,
    stdoutColumns: tty ? options.columns : undefined,
    stderrColumns: tty ? options.columns : undefined,
    stdoutClosed: () => closed,
    stdoutError: () => failure,
    stdoutFlushed: () => Promise.resolve(),
    out: () => out,
    err: () => err,
    closeStdout: () => {
      closed = true;
    },
    failStdout: (error) => {
      closed = true;
      failure = error;
    },
    limitStdout: (bytes) => {
      room = bytes;
    },
    onSignal: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    signal: (signal) => {
      for (const listener of [...listeners]) listener(signal);
    },
  };
}
