import { isUtf8 } from 'node:buffer';
import { UsageError } from '../core/errors.js';
import { HEAD_BYTES, notUtf8 } from '../core/utf8.js';

/**
 * An import's input as text, read as it streams: strict UTF-8 (an invalid byte is refused by
 * its line, never turned into U+FFFD, so what is sent is exactly what was given), a leading
 * byte-order mark dropped, and a workbook or UTF-16 file named for what it is. Nothing but the
 * chunk at hand (and at most three bytes of a character it cut) is held.
 */

/** Where the last whole character of `bytes` ends: a character cut at the end waits for more. */
function wholeCharactersEnd(bytes: Uint8Array): number {
  const length = bytes.length;
  for (let back = 1; back <= Math.min(3, length); back++) {
    const byte = bytes[length - back]!;
    if ((byte & 0xc0) === 0x80) continue; // a continuation byte: look further back
    if (byte < 0xc0) return length;
    const needs = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2;
    return back < needs ? length - back : length;
  }
  return length;
}

function countLines(bytes: Uint8Array): number {
  let lines = 0;
  for (let at = bytes.indexOf(0x0a); at !== -1; at = bytes.indexOf(0x0a, at + 1)) lines++;
  return lines;
}

/** The refusal of bytes that are not UTF-8, by the line (after `linesBefore`) they are on. */
function invalidUtf8(bytes: Uint8Array, linesBefore: number, source: string): UsageError {
  // A newline byte never occurs inside a multi-byte character: lines can be checked alone.
  let line = linesBefore + 1;
  for (let start = 0; start <= bytes.length; line++) {
    const newline = bytes.indexOf(0x0a, start);
    const end = newline === -1 ? bytes.length : newline;
    if (!isUtf8(bytes.subarray(start, end))) break;
    start = end + 1;
  }
  return new UsageError(`${source}, line ${line}: not valid UTF-8; nothing was sent`, {
    hint: 'Convert the input to UTF-8 first, e.g. iconv -f LATIN1 -t UTF-8 FILE.',
  });
}

/** The text of an input's bytes, chunk by chunk, checked as UTF-8 (see above). */
export async function* utf8Text(
  bytes: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>,
  source: string,
): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  let held = Buffer.alloc(0);
  let linesBefore = 0;
  let first = true;
  const decode = (chunk: Uint8Array): string => {
    let text: string;
    try {
      text = decoder.decode(chunk);
    } catch {
      throw invalidUtf8(chunk, linesBefore, source);
    }
    linesBefore += countLines(chunk);
    if (first && text.length > 0) {
      first = false;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    return text;
  };
  let headChecked = false;
  for await (const chunk of bytes) {
    const more = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    held = held.length === 0 ? Buffer.from(more) : Buffer.concat([held, more]);
    if (!headChecked) {
      if (held.length < HEAD_BYTES) continue;
      headChecked = true;
      const shape = notUtf8(held, source);
      if (shape) throw shape;
    }
    const end = wholeCharactersEnd(held);
    const text = decode(held.subarray(0, end));
    // Copied: the cut character's bytes outlive the chunk they came in.
    held = Buffer.from(held.subarray(end));
    if (text !== '') yield text;
  }
  if (!headChecked) {
    const shape = notUtf8(held, source);
    if (shape) throw shape;
  }
  if (held.length > 0) {
    const text = decode(held);
    if (text !== '') yield text;
  }
}

/** A line of the input: its text (without its line end) and its 1-based number. */
export interface InputLine {
  text: string;
  number: number;
}

/**
 * The lines of a text, as they stream: split at LF (NDJSON: a CR before it stays in the line),
 * or with `anyEnd` at LF, CR and CR LF alike (TSV). A line longer than `maxChars` is refused
 * (one record is bounded; the input as a whole is not).
 */
export async function* linesOf(
  text: AsyncIterable<string>,
  options: { anyEnd: boolean; maxChars: number; tooLong: (line: number) => Error },
): AsyncGenerator<InputLine> {
  const ends = options.anyEnd ? /\r\n|\n|\r/g : /\n/g;
  let pending = '';
  let number = 1;
  for await (const chunk of text) {
    const buffer = pending + chunk;
    ends.lastIndex = 0;
    let start = 0;
    for (let match = ends.exec(buffer); match !== null; match = ends.exec(buffer)) {
      // A CR ending the chunk may be the first half of a CR LF: wait for the next chunk.
      if (match[0] === '\r' && match.index === buffer.length - 1) break;
      if (match.index - start > options.maxChars) throw options.tooLong(number);
      yield { text: buffer.slice(start, match.index), number: number++ };
      start = match.index + match[0].length;
    }
    pending = buffer.slice(start);
    if (pending.length > options.maxChars) throw options.tooLong(number);
  }
  if (pending.endsWith('\r') && options.anyEnd) {
    yield { text: pending.slice(0, -1), number: number++ };
    pending = '';
  }
  if (pending !== '') yield { text: pending, number };
}
