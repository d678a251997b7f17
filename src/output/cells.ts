import { guardFormula } from '../core/formula-guard.js';
import { stringifyJson } from '../core/json.js';
import { sanitizeLine, withoutInvisible } from '../core/sanitize.js';

/** A value as plain text: int64 digit for digit, nested values as compact JSON. */
function plainText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') {
    return String(value);
  }
  // As JSON output writes it: a nested int64 as its digits, not a string of them.
  return stringifyJson(value);
}

/** A table cell: one line, with nothing a terminal would act on. */
export function tableCell(value: unknown): string {
  return sanitizeLine(plainText(value));
}

// Control, invisible format and other default-ignorable characters (as in a table) other than
// tab and line breaks (which CSV can carry inside quotes, and TSV escapes).
const INVISIBLE_BUT_BREAKS = /(?![\t\n\r])[\p{Cc}\p{Cf}\p{DI}]/gu;
/** Unicode's line and paragraph separators: line breaks too, to a reader that knows them. */
const UNICODE_BREAKS = /[\u2028\u2029]/g;
const NEEDS_QUOTES = /[",\r\n]/;
/** Text a spreadsheet would run as a formula gets a leading apostrophe; numbers never. */
function guarded(value: unknown, text: string): string {
  return typeof value === 'string' ? guardFormula(text) : text;
}

/**
 * One RFC 4180 field. Text that a spreadsheet would run as a formula gets a leading
 * apostrophe (OWASP's advice), so opening the file runs nothing; numbers are never touched.
 * U+2028 and U+2029 are written as the line breaks they are, inside quotes.
 */
export function csvField(value: unknown): string {
  const text = guarded(
    value,
    withoutInvisible(plainText(value), INVISIBLE_BUT_BREAKS).replace(UNICODE_BREAKS, '\n'),
  );
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const TSV_ESCAPES: Record<string, string> = {
  '\\': '\\\\',
  '\t': '\\t',
  '\n': '\\n',
  '\r': '\\r',
  '\u2028': '\\n',
  '\u2029': '\\n',
};

/**
 * One TSV field: tab, line breaks (U+2028 and U+2029 too) and backslash escaped as \t \n \r
 * \\ (the convention of PostgreSQL's text format and of most TSV readers), so a row is always
 * one line; text a spreadsheet would run as a formula gets a leading apostrophe, as in CSV.
 */
export function tsvField(value: unknown): string {
  const text = withoutInvisible(plainText(value), INVISIBLE_BUT_BREAKS);
  return guarded(value, text).replace(/[\\\t\n\r\u2028\u2029]/g, (c) => TSV_ESCAPES[c]!);
}
