import { Readable } from 'node:stream';
import type { IO, StopSignal } from '../../src/core/io.js';

export interface FakeIO extends IO {
  out(): string;
  err(): string;
  /** Acts as the reader of stdout going away (`| head`): later writes are dropped. */
  closeStdout(): void;
  /** Acts as a stdout that cannot be written (a full disk): later writes are dropped. */
  failStdout(error: NodeJS.ErrnoException): void;
  /** Delivers a signal to whatever listens, as Ctrl-C or a service manager would. */
  signal(signal: StopSignal): void;
}

export function fakeIO(options: { tty?: boolean; stdin?: string; columns?: number } = {}): FakeIO {
  let out = '';
  let err = '';
  let closed = false;
  let failure: NodeJS.ErrnoException | undefined;
  const listeners = new Set<(signal: StopSignal) => void>();
  const tty = options.tty ?? false;
  return {
    stdout: {
      write: (text: string) => {
        if (!closed) out += text;
        return !closed;
      },
    },
    stderr: { write: (text: string) => (err += text) },
    stdin: Readable.from(options.stdin === undefined ? [] : [options.stdin]),
    stdoutIsTTY: tty,
    stderrIsTTY: tty,
    stdinIsTTY: tty,
    stdoutColumns: tty ? options.columns : undefined,
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
    onSignal: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    signal: (signal) => {
      for (const listener of [...listeners]) listener(signal);
    },
  };
}
