import { readFile } from 'node:fs/promises';
import { UsageError } from '../core/errors.js';
import type { IO } from '../core/io.js';

const DEFAULT_MAX_BYTES = 1024 * 1024;

async function readStream(stream: NodeJS.ReadableStream, maxBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += buffer.length;
    if (size > maxBytes) {
      throw new UsageError(
        `standard input is larger than ${Math.round(maxBytes / 1024 / 1024)} MiB`,
      );
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Reads `--file PATH` or `--file -` (stdin) as UTF-8 text. */
export async function readInputFile(
  path: string,
  io: IO,
  maxBytes = DEFAULT_MAX_BYTES,
): Promise<string> {
  if (path === '-') {
    if (io.stdinIsTTY) {
      throw new UsageError('--file - reads standard input, but it is a terminal', {
        hint: 'Pipe the text in, e.g. echo hello | petstore message send --file -',
      });
    }
    return readStream(io.stdin, maxBytes);
  }
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown error';
    throw new UsageError(`cannot read ${path}: ${code}`, { cause: error });
  }
}
