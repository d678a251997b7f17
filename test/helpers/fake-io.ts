import { Readable } from 'node:stream';
import type { IO } from '../../src/core/io.js';

export interface FakeIO extends IO {
  out(): string;
  err(): string;
}

export function fakeIO(options: { tty?: boolean; stdin?: string } = {}): FakeIO {
  let out = '';
  let err = '';
  const tty = options.tty ?? false;
  return {
    stdout: { write: (text: string) => (out += text) },
    stderr: { write: (text: string) => (err += text) },
    stdin: Readable.from(options.stdin === undefined ? [] : [options.stdin]),
    stdoutIsTTY: tty,
    stderrIsTTY: tty,
    stdinIsTTY: tty,
    out: () => out,
    err: () => err,
  };
}
