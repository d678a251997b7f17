import { UsageError } from '../core/errors.js';
import type { IO } from '../core/io.js';
import { FileShapeError, readRegularFile } from '../core/read-file.js';

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

/** What a file that is not UTF-8 text most likely is, and how to make it so. */
function notUtf8(bytes: Uint8Array, source: string): UsageError | undefined {
  const starts = (...prefix: number[]) => prefix.every((byte, at) => bytes[at] === byte);
  if (starts(0x50, 0x4b, 0x03, 0x04)) {
    return new UsageError(
      `${source} is a zip file (a spreadsheet workbook such as .xlsx?), not text; nothing was sent`,
      { hint: 'Save the sheet as CSV (or "CSV UTF-8") from the spreadsheet, then add that file.' },
    );
  }
  if (starts(0xff, 0xfe) || starts(0xfe, 0xff) || utf16WithoutMark(bytes)) {
    return new UsageError(`${source} is UTF-16 text, not UTF-8; nothing was sent`, {
      hint: 'Convert it first, e.g. iconv -f UTF-16 -t UTF-8 FILE > FILE.utf8 (or save the sheet as "CSV UTF-8").',
    });
  }
  return undefined;
}

/**
 * UTF-16 text without a byte order mark: ASCII in it has a NUL in every other byte. A stray
 * NUL elsewhere is a character like any other (JSON input can carry one too).
 */
function utf16WithoutMark(bytes: Uint8Array): boolean {
  const head = bytes.subarray(0, 64);
  if (head.length < 4) return false;
  for (const parity of [0, 1]) {
    let nuls = 0;
    for (let at = parity; at < head.length; at += 2) if (head[at] === 0) nuls++;
    if (nuls >= Math.floor(head.length / 2) * 0.75) return true;
  }
  return false;
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

/** Reads a file, or `-` (stdin), as strict UTF-8 text of at most `maxBytes`. */
export async function readInputFile(
  path: string,
  io: IO,
  use: InputUse,
  maxBytes = DEFAULT_MAX_BYTES,
): Promise<string> {
  if (path === '-') {
    if (io.stdinIsTTY) {
      throw new UsageError(`${use.flag} - reads standard input, but it is a terminal`, {
        hint: `Pipe the input in, e.g. ${use.piped}`,
      });
    }
    return decodeUtf8(await readBytes(io.stdin, 'standard input', maxBytes), 'standard input');
  }
  let bytes: Buffer;
  try {
    bytes = readRegularFile(path, maxBytes);
  } catch (error) {
    if (error instanceof FileShapeError) {
      const larger = error.message.includes('larger');
      throw new UsageError(larger ? `${error.message}; nothing was sent` : error.message, {
        hint: larger
          ? 'Split the input into smaller parts.'
          : `Give a regular file, or pipe what it holds, e.g. ${use.piped}`,
      });
    }
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown error';
    const hint =
      code === 'ENOENT' ? `Check the path; use ${use.flag} - to read standard input.` : undefined;
    throw new UsageError(`cannot read ${path}: ${code}`, { hint, cause: error });
  }
  return decodeUtf8(bytes, path);
}
