import { UsageError } from './errors.js';

export interface NumberRange {
  min: number;
  max: number;
}

const WHOLE = /^\d+$/;
const DECIMAL = /^\d+(\.\d+)?$/;

/**
 * A flag's number: decimal digits only (no sign, exponent, hex or white space inside), within
 * the range. Surrounding white space is ignored, as a shell variable may carry it.
 */
function parseNumber(text: string, name: string, range: NumberRange, whole: boolean): number {
  const trimmed = text.trim();
  const value = Number(trimmed);
  if (!(whole ? WHOLE : DECIMAL).test(trimmed) || value < range.min || value > range.max) {
    const kind = whole ? 'a whole number' : 'a number';
    throw new UsageError(
      `${name} must be ${kind} from ${range.min} to ${range.max}, got "${text}"`,
    );
  }
  return value;
}

/** A whole number within the range, e.g. `--limit 50`. */
export function parseWholeNumber(text: string, name: string, range: NumberRange): number {
  return parseNumber(text, name, range, true);
}

/** A decimal number within the range, e.g. `--timeout 2.5`. */
export function parseDecimal(text: string, name: string, range: NumberRange): number {
  return parseNumber(text, name, range, false);
}
