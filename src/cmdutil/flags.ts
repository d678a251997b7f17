import { BULK_CONCURRENCY } from '../core/contract.js';
import { LIST_LIMIT, isPetStatus, PET_STATUSES, type PetStatus } from '../core/interface.js';
import { UsageError } from '../core/errors.js';
import { parseWholeNumber } from '../core/parse-number.js';

/** --limit: a whole number in the interface's range. */
export function parseLimit(text: string | undefined): number | undefined {
  return text === undefined ? undefined : parseWholeNumber(text, '--limit', LIST_LIMIT);
}

/** --concurrency: requests at once for a bulk add. */
export function parseConcurrency(text: string | undefined): number {
  return text === undefined
    ? BULK_CONCURRENCY.default
    : parseWholeNumber(text, '--concurrency', BULK_CONCURRENCY);
}

/** --status: one of the interface's PetStatus values. */
export function parseStatus(text: string | undefined): PetStatus | undefined {
  if (text === undefined) return undefined;
  if (!isPetStatus(text)) {
    throw new UsageError(`--status must be one of ${PET_STATUSES.join(', ')}, got "${text}"`);
  }
  return text;
}

/**
 * --idempotency-key: what the service matches a re-sent write by. Visible ASCII only (it goes
 * in a header), 1 to 255 characters, as the IETF draft and Stripe allow.
 */
export function parseIdempotencyKey(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  if (!/^[\x21-\x7e]{1,255}$/.test(text)) {
    throw new UsageError(
      '--idempotency-key must be 1 to 255 visible ASCII characters (no spaces)',
      { hint: 'Use the key a previous error named, or any unique value such as a UUID.' },
    );
  }
  return text;
}
