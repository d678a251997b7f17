import { randomUUID } from 'node:crypto';
import { UsageError } from '../../core/errors.js';
import type { NewPet } from '../../core/types.js';
import type { BulkRecord, EarlierOutcomes } from './add-bulk.js';
import { recordDigest, type JournalContents } from './journal.js';

export interface Plan {
  send: BulkRecord[];
  earlier: EarlierOutcomes;
}

export interface RetryChoices {
  /** Send again records the service rejected. */
  retryFailed: boolean;
  /** Send again records whose outcome is unknown, each with its journaled Idempotency-Key. */
  retryUnknown: boolean;
}

/**
 * Which records a run sends. A new run sends all, each with a new Idempotency-Key. A resumed
 * run checks first that the input is the one journaled (same count, same digest for every
 * journaled record), then skips the created ones and, unless asked, the failed and unknown.
 */
export function planRun(
  pets: NewPet[],
  journal: JournalContents | undefined,
  retry: RetryChoices,
): Plan {
  const earlier: EarlierOutcomes = { created: [], failed: [], unknown: [] };
  if (!journal) {
    return { send: pets.map((pet, index) => ({ index, pet, key: randomUUID() })), earlier };
  }
  const changed = (why: string) =>
    new UsageError(`the input changed since the journaled run: ${why}; nothing was sent`, {
      hint: 'Resume with the input the run read (--file PATH), or start a new run without --resume.',
    });
  if (journal.records !== pets.length) {
    throw changed(`it holds ${pets.length} records, the run read ${journal.records}`);
  }
  for (const [record, state] of journal.states) {
    const pet = pets[record - 1];
    if (!pet || recordDigest(pet) !== state.digest) throw changed(`record ${record} differs`);
  }
  const send: BulkRecord[] = [];
  pets.forEach((pet, index) => {
    const state = journal.states.get(index + 1);
    if (!state) send.push({ index, pet, key: randomUUID() });
    else if (state.outcome === 'created') {
      earlier.created.push({ index, pet: state.pet, printed: state.printed });
    } else if (state.outcome === 'failed') {
      // A rejection is certain: a new key, so a service that stored the error answers afresh.
      if (retry.retryFailed) send.push({ index, pet, key: randomUUID() });
      else {
        const error = state.error ?? { code: 'failed', message: 'failed earlier', status: 0 };
        earlier.failed.push({ index, error });
      }
    } else if (retry.retryUnknown) send.push({ index, pet, key: state.key });
    else earlier.unknown.push(index);
  });
  return { send, earlier };
}
