import { option, phrase } from '../core/phrase.js';
import { hash, randomUUID } from 'node:crypto';
import { UsageError } from '../core/errors.js';

/**
 * An Idempotency-Key stands for one attempt to create one record: it is made from the batch
 * (one run, or the runs that complete it, or the runs a user names as one with --batch-id),
 * the input's name and the record's position, and never from the record's content alone. Two
 * records with the same content are two pets unless they are the same record of one batch.
 */

/** A batch id given by the user: printable, no spaces, short enough to read in a log. */
const BATCH_ID = /^[\w.:@/+-]{1,128}$/;

export function parseBatchId(text: string, source: string): string {
  if (!BATCH_ID.test(text)) {
    throw new UsageError(
      `${source} must be 1 to 128 letters, digits or . _ - : @ / + (got ${JSON.stringify(text.slice(0, 40))})`,
      {
        hint: phrase`Name the job it belongs to, e.g. ${option('batchId', '"import-2026-12-01"')}.`,
      },
    );
  }
  return text;
}

/** A new run's batch: unique, so its keys are no other run's. */
export function newBatchId(): string {
  return randomUUID();
}

/**
 * The key of an attempt (1 for the first) to create the record at this 1-based position of
 * the input. Another attempt at a record the service rejected is a new request with a new key,
 * made from the attempt's number, never at random: two runs making the same attempt (a journal
 * and a copy of it, each resumed) send the same key, and the service answers the second from
 * the first.
 */
export function recordKey(batch: string, inputName: string, record: number, attempt = 1): string {
  const which = attempt === 1 ? '' : `\nattempt ${attempt}`;
  return `pets-${hash('sha256', `petstore bulk\n${batch}\n${inputName}\n${record}${which}`).slice(0, 32)}`;
}
