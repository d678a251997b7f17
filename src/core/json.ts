/**
 * JSON with exact int64: integers outside the safe range are parsed as bigint from their source
 * text and written back digit for digit, so ids like 9223372036854775807 never lose precision.
 */

import { escapeInvisibleInJson } from './sanitize.js';

const INTEGER_SOURCE = /^-?\d+$/;
/**
 * Every integer beyond 2^53 (9007199254740992) has 16 digits or more: text without such a run
 * of digits holds none, and plain JSON.parse (several times faster than with a reviver) reads
 * it exactly.
 */
const LONG_DIGIT_RUN = /\d{16}/;

/** Deeper than any document of the interface, and well within what the reviver can recurse. */
export const MAX_JSON_DEPTH = 1000;

/** Valid JSON nested deeper than MAX_JSON_DEPTH: told apart from malformed JSON. */
export class JsonTooDeepError extends Error {
  constructor() {
    super(`JSON nested more than ${MAX_JSON_DEPTH} levels deep`);
  }
}

/** True when arrays and objects nest deeper than `limit`, brackets in strings not counted. */
function nestsDeeperThan(text: string, limit: number): boolean {
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
  if (!LONG_DIGIT_RUN.test(text)) return JSON.parse(text) as unknown;
  return JSON.parse(text, (_key, value, context) => {
    if (
      typeof value === 'number' &&
      !Number.isSafeInteger(value) &&
      context.source !== undefined &&
      INTEGER_SOURCE.test(context.source)
    ) {
      return BigInt(context.source);
    }
    return value;
  });
}

function bigintReplacer(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? JSON.rawJSON(value.toString()) : value;
}

/** JSON text of the value; characters a terminal would act on or hide come out escaped. */
export function stringifyJson(value: unknown, pretty = false): string {
  const indent = pretty ? 2 : undefined;
  let text: string;
  try {
    // Without a replacer first: much faster, and it throws only when a bigint is present.
    text = JSON.stringify(value, null, indent);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    text = JSON.stringify(value, bigintReplacer, indent);
  }
  return escapeInvisibleInJson(text);
}
