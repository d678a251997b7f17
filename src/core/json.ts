/**
 * JSON with exact int64: integers outside the safe range are parsed as bigint from their source
 * text and written back digit for digit, so ids like 9223372036854775807 never lose precision.
 */

import { escapeInvisibleInJson } from './sanitize.js';

const INTEGER_SOURCE = /^-?\d+$/;
/**
 * Every integer beyond 2^53 (9007199254740992) has 16 digits or more, and so does every number
 * with a fraction that a double rounds to an integer (16.000000000000001): text without such a
 * run of digits (a decimal point may sit inside it) holds neither, and plain JSON.parse
 * (several times faster than with a reviver) reads it exactly.
 */
const LONG_DIGIT_RUN = /\d(?:\.?\d){15}/;
/**
 * A number with an exponent may be an int64 a double cannot hold (1e18, 5.000000000000000001e17)
 * or round to an integer it is not (1e-400 to 0): read from its text too.
 */
const EXPONENT = /\d[eE][+-]?\d/;

/** Deeper than any document of the interface, and well within what the reviver can recurse. */
export const MAX_JSON_DEPTH = 1000;

/** Valid JSON nested deeper than MAX_JSON_DEPTH: told apart from malformed JSON. */
export class JsonTooDeepError extends Error {
  constructor() {
    super(`JSON nested more than ${MAX_JSON_DEPTH} levels deep`);
  }
}

/** How many times `character` is in `text`, counted by the engine's own search. */
function countOf(text: string, character: string): number {
  let count = 0;
  for (let at = text.indexOf(character); at !== -1; at = text.indexOf(character, at + 1)) count++;
  return count;
}

/** True when arrays and objects nest deeper than `limit`, brackets in strings not counted. */
function nestsDeeperThan(text: string, limit: number): boolean {
  // Fewer openings than the limit cannot nest past it: a page of pets never needs the walk.
  if (countOf(text, '[') + countOf(text, '{') <= limit) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === 0x5c)
        i++; // backslash: skip the escaped character
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) inString = true;
    else if (char === 0x5b || char === 0x7b) {
      if (++depth > limit) return true;
    } else if (char === 0x5d || char === 0x7d) depth--;
  }
  return false;
}

/**
 * Parses JSON, integers beyond 2^53 as bigint. Throws SyntaxError for malformed text and
 * JsonTooDeepError for valid text nested beyond MAX_JSON_DEPTH (the exact-int64 reviver
 * recurses, and would overflow the stack).
 */
export function parseJson(text: string): unknown {
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
    JSON.parse(text); // malformed text is reported as such, whatever its depth
    throw new JsonTooDeepError();
  }
  if (!LONG_DIGIT_RUN.test(text) && !EXPONENT.test(text)) {
    return JSON.parse(text) as unknown;
  }
  const mark = MARKS.find((code) => !holdsCharacter(text, code));
  // Every mark spelled in the text (never in practice): read it the slow way.
  if (mark === undefined) return parseWithReviver(text);
  const marked = markNumbers(text, mark);
  if (marked.sources.length === 0) return JSON.parse(text) as unknown;
  let value: unknown;
  try {
    value = JSON.parse(marked.text);
  } catch {
    JSON.parse(text); // the error as the text given has it
    throw new SyntaxError('JSON could not be parsed');
  }
  return unmark(value, marked.sources, mark);
}

/**
 * Characters a mark may start with: U+0000, else noncharacters. A text holding one, as itself
 * or as a \u escape, could hold a string equal to a mark, so that one is not used for it.
 */
const MARKS = [0x0000, 0xfdd0, 0xfdd1, 0xfdd2, 0xfdd3];

function holdsCharacter(text: string, code: number): boolean {
  if (text.includes(String.fromCharCode(code))) return true;
  // As an escape, in either case of hex digits: \u00fd or \uFDD0 alike.
  const hex = code.toString(16).padStart(4, '0');
  return new RegExp(`\\\\u${hex}`, 'i').test(text);
}

/**
 * JSON.parse with a reviver that reads every number from its source text: exact, but slow (it
 * is called for every value). Kept as the last resort, and as the reference in tests.
 */
export function parseWithReviver(text: string): unknown {
  return JSON.parse(text, (_key, value, context) =>
    typeof value === 'number' && context.source !== undefined
      ? exactNumber(value, context.source)
      : value,
  );
}

/** A JSON number as the grammar has it (RFC 8259). */
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/**
 * The text with each number a double may not read exactly (a run of 16 digits, an exponent)
 * outside strings replaced by a string marking it, and those numbers' source texts: then
 * JSON.parse runs without a reviver, which it calls for every value with its source (several
 * times slower on a list of pets with ids past 2^53). A number is marked only where a string
 * could stand instead without making bad JSON good: a valid number, not an object's key.
 */
function markNumbers(text: string, mark: number): { text: string; sources: string[] } {
  const escape = `\\u${mark.toString(16).padStart(4, '0')}`;
  const sources: string[] = [];
  let out = '';
  let copied = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === 0x5c) i++;
      else if (char === 0x22) inString = false;
      continue;
    }
    if (char === 0x22) {
      inString = true;
      continue;
    }
    // A number starts with - or a digit; it ends at the first character no number holds.
    if (char !== 0x2d && (char < 0x30 || char > 0x39)) continue;
    let end = i + 1;
    for (; end < text.length; end++) {
      const next = text.charCodeAt(end);
      const inNumber =
        (next >= 0x30 && next <= 0x39) ||
        next === 0x2e ||
        next === 0x65 ||
        next === 0x45 ||
        next === 0x2b ||
        next === 0x2d;
      if (!inNumber) break;
    }
    const source = text.slice(i, end);
    if (
      (LONG_DIGIT_RUN.test(source) || EXPONENT.test(source)) &&
      JSON_NUMBER.test(source) &&
      !followedByColon(text, end)
    ) {
      // A string starting with the mark (which the text spells nowhere) and the number's index.
      out += `${text.slice(copied, i)}"${escape}${sources.length}"`;
      sources.push(source);
      copied = end;
    }
    i = end - 1;
  }
  return { text: copied === 0 ? text : out + text.slice(copied), sources };
}

/** Whether the next character after `at` that is not JSON white space is a colon. */
function followedByColon(text: string, at: number): boolean {
  let i = at;
  while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  return text[i] === ':';
}

/** The parsed value with each mark replaced by its number, read exactly from its source. */
function unmark(value: unknown, sources: readonly string[], mark: number): unknown {
  if (typeof value === 'string') {
    if (value.charCodeAt(0) !== mark) return value;
    const source = sources[Number(value.slice(1))]!;
    return exactNumber(Number(source), source);
  }
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = unmark(value[i], sources, mark);
    return value;
  }
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const field = record[key];
    const read = unmark(field, sources, mark);
    if (read === field) continue;
    // Defined, not assigned: a key "__proto__" must stay a field, not set the prototype.
    Object.defineProperty(record, key, {
      value: read,
      writable: true,
      enumerable: true,
      configurable: true,
    });
  }
  return value;
}

/**
 * A number as its text says, where a double would say otherwise: an integer beyond 2^53 as
 * bigint (digit for digit, from `123` or `1.23e2` alike), and a number that is no integer but
 * rounds to one (4.00000000000000000001, 2.9999999999999999) kept as its text (JSON.rawJSON),
 * which is no integer to any check and is written back as it came. Others as parsed.
 */
function exactNumber(value: number, source: string): unknown {
  // Past a double's range (1e400): kept as written, never turned into null on the way out.
  if (!Number.isFinite(value)) return JSON.rawJSON(source);
  if (!Number.isInteger(value)) return value;
  const integer = INTEGER_SOURCE.test(source) ? source : integerOfLiteral(source);
  if (integer === undefined) return JSON.rawJSON(source);
  return Number.isSafeInteger(value) ? value : BigInt(integer);
}

/** The integer a JSON number literal stands for exactly (`1.50e1` -> "15"), if it is one. */
function integerOfLiteral(source: string): string | undefined {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(source);
  if (!match) return undefined;
  const [, sign, whole, fraction = '', exponent = '0'] = match;
  const digits = whole! + fraction;
  // Zero, however written (0e999999999): never spelled out digit by digit.
  if (/^0*$/.test(digits)) return '0';
  const point = whole!.length + Number(exponent);
  if (point <= 0) return /^0*$/.test(digits) ? '0' : undefined;
  if (!/^0*$/.test(digits.slice(point))) return undefined;
  const integer = digits
    .slice(0, point)
    .padEnd(point, '0')
    .replace(/^0+(?=\d)/, '');
  return integer === '0' ? '0' : `${sign}${integer}`;
}

/**
 * The value with each bigint as JSON.rawJSON of its digits, copying only what holds one: then
 * JSON.stringify runs without a replacer, which it would call for every key (a list of pets
 * with ids past 2^53 was written several times slower).
 */
function withRawIntegers(value: unknown): unknown {
  if (typeof value === 'bigint') return JSON.rawJSON(value.toString());
  if (typeof value !== 'object' || value === null || JSON.isRawJSON(value)) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      const raw = withRawIntegers(item);
      if (raw !== item) (copy ??= value.slice())[i] = raw;
    }
    return copy ?? value;
  }
  let copy: Record<string, unknown> | undefined;
  const record = value as Record<string, unknown>;
  for (const key in record) {
    const field = record[key];
    const raw = withRawIntegers(field);
    if (raw !== field) (copy ??= { ...record })[key] = raw;
  }
  return copy ?? value;
}

/** JSON text of the value; characters a terminal would act on or hide come out escaped. */
export function stringifyJson(value: unknown, pretty = false): string {
  const indent = pretty ? 2 : undefined;
  // Not "try as it is, and again on a TypeError": the exception cost more than the walk, once
  // per row of a list whose ids are past 2^53.
  return escapeInvisibleInJson(JSON.stringify(withRawIntegers(value), null, indent));
}

/**
 * The first key that one object of a JSON text gives twice, decoded (`"n\u0061me"` is "name");
 * undefined when none does. JSON.parse keeps the last silently. The text must be valid JSON.
 */
export function firstDuplicateKey(text: string): string | undefined {
  return duplicateKeys(text, 1)[0]?.key;
}

/**
 * Each object's first key given twice (up to `limit` of them), with where it is: `item`, the
 * 0-based element of the top-level array the object is in (undefined when the text is no
 * array). The text must be valid JSON.
 */
export function duplicateKeys(
  text: string,
  limit = Infinity,
): { key: string; item: number | undefined }[] {
  const found: { key: string; item: number | undefined }[] = [];
  /** Per open object, its keys so far (undefined once one was found twice); null: an array. */
  const objects: (Set<string> | undefined | null)[] = [];
  const topIsArray = text.trimStart().startsWith('[');
  let item = 0;
  let expectKey = false;
  for (let i = 0; i < text.length && found.length < limit; i++) {
    const char = text[i];
    if (char === '"') {
      const start = i;
      for (i++; text[i] !== '"'; i++) if (text[i] === '\\') i++;
      const keys = objects.at(-1);
      if (expectKey && keys) {
        const key = JSON.parse(text.slice(start, i + 1)) as string;
        if (keys.has(key)) {
          found.push({ key, item: topIsArray ? item : undefined });
          objects[objects.length - 1] = undefined;
        } else keys.add(key);
      }
      expectKey = false;
    } else if (char === '{') {
      objects.push(new Set());
      expectKey = true;
    } else if (char === '[') objects.push(null);
    else if (char === '}' || char === ']') objects.pop();
    else if (char === ',') {
      if (objects.length === 1 && topIsArray) item++;
      expectKey = objects.at(-1) !== null;
    }
  }
  return found;
}
