/**
 * What a spreadsheet runs as a formula (CSV injection, OWASP), and the apostrophe that stops
 * it: written by `-o csv` and `-o tsv`, taken off again when such a file is read back, so a
 * name makes the round trip exactly.
 *
 * A cell is a formula when its first character, after any blanks or line breaks (every Unicode
 * white space, U+2028 and U+3000 too) and invisible default-ignorable characters, is = + - @ in
 * any form that normalises to one (full-width, small) or the minus sign U+2212; or when it
 * starts with a tab or CR. Apostrophes before such a text count as part of the guard, so the
 * writer adds one to a text that already starts with `'=` too, and the reader takes exactly
 * one off: every text reads back as it was written.
 */

const LEADING_BLANKS = /^[\p{White_Space}\p{DI}]*/u;
const FORMULA_SIGN = /^[=+\-@\u2212]/;

function startsFormula(text: string): boolean {
  if (text.startsWith('\t') || text.startsWith('\r')) return true;
  const rest = text.replace(LEADING_BLANKS, '');
  if (rest === '') return false;
  return FORMULA_SIGN.test(String.fromCodePoint(rest.codePointAt(0)!).normalize('NFKC'));
}

/** A formula once any apostrophes in front are taken away. */
const guardable = (text: string): boolean => startsFormula(text.replace(/^'+/, ''));

/** The text as a cell: a leading apostrophe when a spreadsheet would run it as a formula. */
export function guardFormula(text: string): string {
  return guardable(text) ? `'${text}` : text;
}

/** A cell read back: the apostrophe guardFormula added taken off; any other text as it is. */
export function unguardFormula(cell: string): string {
  return cell.startsWith("'") && guardable(cell.slice(1)) ? cell.slice(1) : cell;
}
