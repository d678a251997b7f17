/**
 * An HTTP date (RFC 9110: IMF-fixdate, or the obsolete forms) as milliseconds since the epoch;
 * NaN when it is none. Always UTC, as HTTP dates are: a date without its zone (`GMT`) is read
 * as UTC, never in the machine's own time zone as Date.parse would.
 */
export function parseHttpDate(text: string): number {
  const trimmed = text.trim();
  if (trimmed === '') return NaN;
  const zoned = /(GMT|UTC|UT|Z|[+-]\d{2}:?\d{2})$/i.test(trimmed) ? trimmed : `${trimmed} GMT`;
  return Date.parse(zoned);
}
