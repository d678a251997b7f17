import { UsageError } from './errors.js';

export type Int64 = number | bigint;

const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;
const DECIMAL_INTEGER = /^-?\d+$/;

export function isInt64(value: unknown): value is Int64 {
  if (typeof value === 'number') return Number.isSafeInteger(value);
  if (typeof value === 'bigint') return value >= INT64_MIN && value <= INT64_MAX;
  return false;
}

/**
 * Parses user input as a decimal int64: no fractions, exponents, hex, signs other than a leading
 * minus, or values out of range. Safe integers come back as numbers, larger ones as bigint.
 */
export function parseInt64(text: string, what: string): Int64 {
  const trimmed = text.trim();
  if (!DECIMAL_INTEGER.test(trimmed)) {
    throw new UsageError(`${what} must be a whole number (int64), got "${text}"`, {
      hint: `Use decimal digits only, for example ${what} 42.`,
    });
  }
  const value = BigInt(trimmed);
  if (value < INT64_MIN || value > INT64_MAX) {
    throw new UsageError(`${what} is out of the int64 range, got "${text}"`, {
      hint: `Use a value from ${INT64_MIN} to ${INT64_MAX}.`,
    });
  }
  return toInt64(value);
}

export function toInt64(value: bigint): Int64 {
  return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER)
    ? Number(value)
    : value;
}
