import { BULK_CONCURRENCY } from '../core/contract.js';
import { UsageError } from '../core/errors.js';
import { parseInt64, type Int64 } from '../core/int64.js';
import { isPetStatus, LIST_LIMIT, PET_STATUSES, type PetStatus } from '../core/interface.js';
import { parseDuration } from '../core/duration.js';
import { parseWholeNumber } from '../core/parse-number.js';
import { parseFields } from './fields.js';

/**
 * Flag values as commander parses them (`.option(flags, help, parser)`): each takes the text
 * given and returns the typed value, or throws a UsageError naming the flag. The flag is then
 * declared once, in its verb's file, and its type is inferred from that declaration.
 */

/** A whole number in a range, for the flag named. */
export function wholeNumberFlag(
  flag: string,
  range: { min: number; max: number },
): (text: string) => number {
  return (text) => parseWholeNumber(text, flag, range);
}

/** An int64, every digit kept, for the flag named. */
export function int64Flag(flag: string): (text: string) => Int64 {
  return (text) => parseInt64(text, flag);
}

/** --limit: a whole number in the interface's range. */
export const limitFlag = wholeNumberFlag('--limit', LIST_LIMIT);

/** --concurrency: requests at once for an import. */
export const concurrencyFlag = wholeNumberFlag('--concurrency', BULK_CONCURRENCY);

/** --status: one of the interface's PetStatus values. */
export function statusFlag(text: string): PetStatus {
  // A word: blanks a script left around it are not part of it (as in a CSV cell).
  const status = text.trim();
  if (!isPetStatus(status)) {
    throw new UsageError(`--status must be one of ${PET_STATUSES.join(', ')}, got "${text}"`);
  }
  return status;
}

/** A path (FILE, --journal, --resume): an empty one names no file. */
export function pathFlag(flag: string): (text: string) => string {
  return (text) => {
    if (text === '') {
      throw new UsageError(`${flag} must name a file (got an empty value)`, {
        hint: flag === 'FILE' ? 'Give a path, or - for standard input.' : undefined,
      });
    }
    return text;
  };
}

/** --fields id,name,...: fields of these, in the order given. */
export function fieldsFlag(known: readonly string[]): (text: string) => string[] {
  return (text) => parseFields(text, known) ?? [];
}

/** A text flag that must hold something, for the flag named. */
export function nonEmptyFlag(flag: string, hint?: string): (text: string) => string {
  return (text) => {
    if (text.trim() === '') throw new UsageError(`${flag} must not be empty`, { hint });
    return text;
  };
}

/**
 * --idempotency-key: what the service matches a re-sent write by. Visible ASCII only (it goes
 * in a header), 1 to 255 characters, as the IETF draft and Stripe allow.
 */
export function idempotencyKeyFlag(text: string): string {
  if (!/^[\x21-\x7e]{1,255}$/.test(text)) {
    throw new UsageError(
      '--idempotency-key must be 1 to 255 visible ASCII characters (no spaces)',
      { hint: 'Use the key a previous error named, or any unique value such as a UUID.' },
    );
  }
  return text;
}

/** Ten years: past it, an age is a typo. */
const MAX_AGE_MS = 3650 * 86_400_000;

/**
 * An age or a time back (--older-than, --since), e.g. 12h, 7d, 1h30m; with `zero`, 0s too
 * (an age of none, asked for on purpose: every entry, however new).
 */
export function ageFlag(flag: string, options: { zero?: boolean } = {}): (text: string) => number {
  return (text) => {
    const ms = parseDuration(text, MAX_AGE_MS, options);
    if (ms === undefined) {
      throw new UsageError(
        `${flag} must be a duration such as 12h, 7d or 30m (got ${JSON.stringify(text)})`,
      );
    }
    return ms;
  };
}
