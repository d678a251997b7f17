import { RECORD_MAX_CHARS } from '../core/contract.js';
import { UsageError } from '../core/errors.js';
import { firstDuplicateKey, JsonTooDeepError, parseJson } from '../core/json.js';
import { option, phrase } from '../core/phrase.js';
import { linesOf } from './input-text.js';
import { jsonRecord, recordTooLong, refuseDelimited, type ReadRecord } from './records.js';

/**
 * JSON input for `pets import`, read as it streams: NDJSON a line at a time, a JSON array an
 * item at a time (cut at its top-level commas, each item then parsed alone). int64 values keep
 * every digit; a key given twice in one record is refused (JSON.parse would keep the last).
 */

function duplicateProblem(key: string): string {
  return `"${key}" is given twice (only one value can be sent)`;
}

function parseProblem(error: unknown): string {
  return error instanceof JsonTooDeepError ? error.message : 'not valid JSON';
}

/** The value of a record's JSON text, or what is wrong with it. */
function parsed(text: string): { value?: unknown; problem?: string } {
  const value = parseJson(text);
  const twice = firstDuplicateKey(text);
  return twice === undefined ? { value } : { value, problem: duplicateProblem(twice) };
}

/** NDJSON: one record a line; blank lines are no records. */
export async function* ndjsonRecords(
  text: AsyncIterable<string>,
  source: string,
): AsyncGenerator<ReadRecord> {
  let position = 0;
  const lines = linesOf(text, {
    anyEnd: false,
    maxChars: RECORD_MAX_CHARS,
    tooLong: (line) => recordTooLong(source, `line ${line}`),
  });
  for await (const line of lines) {
    if (line.text.trim() === '') continue;
    position++;
    let found: { value?: unknown; problem?: string };
    try {
      found = parsed(line.text);
    } catch (error) {
      if (position === 1) refuseDelimited(line.text, source);
      found = { problem: parseProblem(error) };
    }
    const written = line.text.replace(/\r$/, '');
    yield jsonRecord(found.value, { position, where: `line ${line.number}`, written, ...found });
  }
}

/** A JSON array's records, one item at a time. */
export async function* jsonArrayRecords(
  text: AsyncIterable<string>,
  source: string,
): AsyncGenerator<ReadRecord> {
  let position = 0;
  for await (const item of arrayItems(text, source)) {
    position++;
    let found: { value?: unknown; problem?: string };
    try {
      found = parsed(item);
    } catch (error) {
      const reason = error instanceof JsonTooDeepError ? error.message : (error as Error).message;
      throw new UsageError(
        `${source} is not valid JSON: item ${position}: ${reason}; nothing was sent`,
        { hint: JSON_HINT },
      );
    }
    yield jsonRecord(found.value, { position, where: `item ${position}`, written: item, ...found });
  }
}

/** What to do about JSON that does not parse. */
const JSON_HINT =
  'Fix the JSON where it says (a comma before ] or }, a bracket never closed, text after the array), e.g. with jq . FILE to see where it breaks, and run again.';

/** JSON's own white space: nothing else may stand between the items of an array. */
const isBlank = (code: number) => code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
const trimBlanks = (text: string) => text.replace(/^[ \t\n\r]+|[ \t\n\r]+$/g, '');

/**
 * The text of each item of a JSON array, as it streams: items are cut at the commas (and the
 * closing bracket) outside any string, object or array; each is parsed by the caller, which
 * says what is wrong inside one. Only the item at hand is held, up to RECORD_MAX_CHARS.
 */
async function* arrayItems(text: AsyncIterable<string>, source: string): AsyncGenerator<string> {
  let state: 'open' | 'first' | 'next' | 'item' | 'closed' = 'open';
  let depth = 0;
  let inString = false;
  let escaped = false;
  let parts: string[] = [];
  let size = 0;
  let items = 0;
  let line = 1;
  const bad = (what: string) =>
    new UsageError(`${source} is not valid JSON: ${what} (line ${line}); nothing was sent`, {
      hint: JSON_HINT,
    });
  for await (const chunk of text) {
    let start = 0;
    for (let at = 0; at < chunk.length; at++) {
      const code = chunk.charCodeAt(at);
      if (code === 0x0a) line++;
      if (state !== 'item') {
        if (isBlank(code)) continue;
        if (state === 'open') {
          if (code !== 0x5b) throw notArray(source);
          state = 'first';
          continue;
        }
        if (state === 'closed') throw bad('text after the closing ]');
        if (code === 0x5d && state === 'first') {
          state = 'closed';
          continue;
        }
        if (code === 0x5d || code === 0x2c) throw bad(`an item is missing before "${chunk[at]}"`);
        state = 'item';
        start = at;
        depth = 0;
      }
      if (inString) {
        if (escaped) escaped = false;
        else if (code === 0x5c) escaped = true;
        else if (code === 0x22) inString = false;
      } else if (code === 0x22) inString = true;
      else if (code === 0x5b || code === 0x7b) depth++;
      else if ((code === 0x5d || code === 0x7d) && depth > 0) depth--;
      else if (depth === 0 && (code === 0x2c || code === 0x5d)) {
        if (size + at - start > RECORD_MAX_CHARS) throw recordTooLong(source, `item ${items + 1}`);
        parts.push(chunk.slice(start, at));
        const item = trimBlanks(parts.join(''));
        parts = [];
        size = 0;
        items++;
        state = code === 0x2c ? 'next' : 'closed';
        yield item;
      }
    }
    if (state === 'item') {
      const rest = chunk.slice(start);
      parts.push(rest);
      size += rest.length;
      if (size > RECORD_MAX_CHARS) throw recordTooLong(source, `item ${items + 1}`);
    }
  }
  // Widened: the loop above changes it where the compiler does not follow.
  const ended = state as string;
  if (ended === 'open') throw notArray(source);
  if (ended !== 'closed') throw bad('the array is never closed with ]');
}

function notArray(source: string): UsageError {
  return new UsageError(`${source} must hold a JSON array of pets; nothing was sent`, {
    hint: phrase`Give one record a line as NDJSON (${option('inputFormat', 'ndjson')}), or a JSON array.`,
  });
}

/** A JSON input that is no array: one object a line (NDJSON), CSV, or something else. */
export function refuseNotArray(firstLine: string, source: string): never {
  refuseDelimited(firstLine, source);
  let object: boolean;
  try {
    const value = parseJson(firstLine);
    object = typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    object = false;
  }
  if (object) {
    throw new UsageError(
      `${source} is not one JSON array but one object a line (NDJSON); nothing was sent`,
      { hint: phrase`Give ${option('inputFormat', 'ndjson')}, or name the file .ndjson.` },
    );
  }
  throw notArray(source);
}
