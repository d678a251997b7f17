/**
 * JSON with exact int64: integers outside the safe range are parsed as bigint from their source
 * text and written back digit for digit, so ids like 9223372036854775807 never lose precision.
 */

import { escapeInvisibleInJson } from './sanitize.js';

const INTEGER_SOURCE = /^-?\d+$/;

export function parseJson(text: string): unknown {
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
  return escapeInvisibleInJson(JSON.stringify(value, bigintReplacer, pretty ? 2 : undefined));
}
