import { UsageError } from '../core/errors.js';
import type { IO } from '../core/io.js';
import { createReadStream } from 'node:fs';
import { FileShapeError, openRegularFile, readRegularFile } from '../core/read-file.js';
import { notUtf8 } from '../core/utf8.js';

const DEFAULT_MAX_BYTES = 1024 * 1024;

function describeSize(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / 1024 / 1024)} MiB` : `${bytes} bytes`;
}

async function readBytes(
  stream: NodeJS.ReadableStream,
  source: string,
  maxBytes: number,
): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += buffer.length;
    if (size > maxBytes) {
      // Stop reading a file at once; a pipe's writer sees EPIPE, as with `head`.
      (stream as { destroy?: () => void }).destroy?.();
      throw new UsageError(`${source} is larger than ${describeSize(maxBytes)}; nothing was sent`, {
        hint: 'Split the input into smaller parts.',
      });
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * UTF-8 text of `bytes`, without a leading byte order mark. Invalid UTF-8 is refused with its
 * line number rather than turned into U+FFFD, so what is sent is exactly what was given.
 */
export function decodeUtf8(bytes: Uint8Array, source: string): string {
  const shape = notUtf8(bytes, source);
  if (shape) throw shape;
  const decoder = new TextDecoder('utf-8', { fatal: true });
  try {
    return decoder.decode(bytes);
  } catch {
    // A newline byte never occurs inside a multi-byte character, so lines can be checked alone.
    let line = 1;
    let start = 0;
    const lineDecoder = new TextDecoder('utf-8', { fatal: true });
    for (let end = 0; end <= bytes.length; end++) {
      if (end < bytes.length && bytes[end] !== 0x0a) continue;
      try {
        lineDecoder.decode(bytes.subarray(start, end));
      } catch {
        throw new UsageError(`${source}, line ${line}: not valid UTF-8; nothing was sent`, {
          hint: 'Convert the input to UTF-8 first, e.g. iconv -f LATIN1 -t UTF-8 FILE.',
        });
      }
      line++;
      start = end + 1;
    }
    throw new UsageError(`${source} is not valid UTF-8; nothing was sent`);
  }
}

/**
 * What an input is read for, so that a hint names the command the user ran: the flag that
 * names the input, and that command fed from a pipe, e.g. `cat pets.ndjson | petstore pets
 * import -`.
 */
export interface InputUse {
  flag: string;
  piped: string;
}

/** Why an input cannot be read, said with what to do. */
function cannotRead(error: unknown, path: string, use: InputUse): UsageError {
  if (error instanceof FileShapeError) {
    const larger = error.message.includes('larger');
    return new UsageError(larger ? `${error.message}; nothing was sent` : error.message, {
      hint: larger
        ? 'Split the input into smaller parts.'
        : `Give a regular file, or pipe what it holds, e.g. ${use.piped}`,
    });
  }
  const code = (error as NodeJS.ErrnoException).code ?? 'unknown error';
  const hint =
    code === 'ENOENT' ? `Check the path; use ${use.flag} - to read standard input.` : undefined;
  return new UsageError(`cannot read ${path}: ${code}`, { hint, cause: error });
}

function refuseTerminal(io: IO, use: InputUse): void {
  if (!io.stdinIsTTY) return;
  throw new UsageError(`${use.flag} - reads standard input, but it is a terminal`, {
    hint: `Pipe the input in, e.g. ${use.piped}`,
  });
}

/** Reads a file, or `-` (stdin), as strict UTF-8 text of at most `maxBytes`. */
export async function readInputFile(
  path: string,
  io: IO,
  use: InputUse,
  maxBytes = DEFAULT_MAX_BYTES,
): Promise<string> {
  if (path === '-') {
    refuseTerminal(io, use);
    return decodeUtf8(await readBytes(io.stdin, 'standard input', maxBytes), 'standard input');
  }
  let bytes: Buffer;
  try {
    bytes = readRegularFile(path, maxBytes);
  } catch (error) {
    throw cannotRead(error, path, use);
  }
  return decodeUtf8(bytes, path);
}

/**
 * The bytes of a file, or `-` (stdin), as they stream, of any size: the file checked to be a
 * regular one first (a FIFO or a device is refused, as when it is read whole).
 */
export function openInputStream(
  path: string,
  io: IO,
  use: InputUse,
): Promise<AsyncIterable<Uint8Array>> {
  if (path === '-') {
    refuseTerminal(io, use);
    return Promise.resolve(io.stdin as AsyncIterable<Uint8Array>);
  }
  let fd: number;
  try {
    fd = openRegularFile(path);
  } catch (error) {
    return Promise.reject(cannotRead(error, path, use));
  }
  // The stream closes the descriptor at its end, or when its reader stops early.
  return Promise.resolve(createReadStream('', { fd }));
}
