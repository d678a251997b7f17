import { sanitizeLine } from '../core/sanitize.js';

/** A value as plain text: int64 digit for digit, nested values as compact JSON. */
function plainText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') {
    return String(value);
  }
  return JSON.stringify(value, (_key, inner: unknown) =>
    typeof inner === 'bigint' ? String(inner) : inner,
  );
}

/** A table cell: one line, with nothing a terminal would act on. */
export function tableCell(value: unknown): string {
  return sanitizeLine(plainText(value));
}

// Control and invisible format characters other than tab and line breaks (which CSV can carry
// inside quotes, and TSV escapes).
const INVISIBLE_BUT_BREAKS = /(?![\t\n\r])[\p{Cc}\p{Cf}]/gu;
const NEEDS_QUOTES = /[",\r\n]/;
// A spreadsheet runs a cell that starts with one of these as a formula (CSV injection).
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One RFC 4180 field. Text that a spreadsheet would run as a formula gets a leading
 * apostrophe (OWASP's advice), so opening the file runs nothing; numbers are never touched.
 */
export function csvField(value: unknown): string {
  let text = plainText(value).replace(INVISIBLE_BUT_BREAKS, '');
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const TSV_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/**
 * One TSV field: tab, line breaks and backslash escaped as \t \n \r \\ (the convention of
 * PostgreSQL's text format and of most TSV readers), so a row is always one line.
 */
export function tsvField(value: unknown): string {
  return plainText(value)
    .replace(INVISIBLE_BUT_BREAKS, '')
    .replace(/[\\\t\n\r]/g, (character) => TSV_ESCAPES[character]!);
}
