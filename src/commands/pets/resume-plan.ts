import { randomUUID } from 'node:crypto';
import { UsageError } from '../../core/errors.js';
import type { EarlierOutcomes, SendList } from './bulk-plan.js';
import { recordDigest, type JournalContents } from './journal.js';
import type { PetRecords } from './pets-file.js';

export interface Plan {
  send: SendList;
  earlier: EarlierOutcomes;
}

export interface RetryChoices {
  /** Send again records the service rejected. */
  retryFailed: boolean;
  /** Send again records whose outcome is unknown, each with its journaled Idempotency-Key. */
  retryUnknown: boolean;
}

function sendList(records: PetRecords, indexes: number[], keys: Map<number, string>): SendList {
  return {
    length: indexes.length,
    indexAt: (position) => indexes[position]!,
    record: (position) => {
      const index = indexes[position]!;
      return { index, pet: records.at(index), key: keys.get(index) ?? randomUUID() };
    },
  };
}

/**
 * Which records a run sends. A new run sends all, each with a new Idempotency-Key. A resumed
 * run checks first that the input is the one journaled (same count, same digest for every
 * journaled record), then skips the created ones and, unless asked, the failed and unknown.
 */
export function planRun(
  records: PetRecords,
  journal: JournalContents | undefined,
  retry: RetryChoices,
): Plan {
  const earlier: EarlierOutcomes = { created: [], failed: [], unknown: [] };
  const keys = new Map<number, string>();
  if (!journal) {
    const all = Array.from({ length: records.count }, (_, index) => index);
    return { send: sendList(records, all, keys), earlier };
  }
  const changed = (why: string) =>
    new UsageError(`the input changed since the journaled run: ${why}; nothing was sent`, {
      hint: 'Resume with the input the run read (--file PATH), or start a new run without --resume.',
    });
  if (journal.records !== records.count) {
    throw changed(`it holds ${records.count} records, the run read ${journal.records}`);
  }
  for (const [record, state] of journal.states) {
    if (record > records.count || recordDigest(records.at(record - 1)) !== state.digest) {
      throw changed(`record ${record} differs`);
    }
  }
  const indexes: number[] = [];
  for (let index = 0; index < records.count; index++) {
    const state = journal.states.get(index + 1);
    if (!state) indexes.push(index);
    else if (state.outcome === 'created') {
      earlier.created.push({ index, pet: state.pet, printed: state.printed });
    } else if (state.outcome === 'failed') {
      // A rejection is certain: a new key, so a service that stored the error answers afresh.
      if (retry.retryFailed) indexes.push(index);
      else {
        const error = state.error ?? { code: 'failed', message: 'failed earlier', status: 0 };
        earlier.failed.push({ index, error });
      }
    } else if (retry.retryUnknown) {
      indexes.push(index);
      keys.set(index, state.key);
    } else earlier.unknown.push(index);
  }
  return { send: sendList(records, indexes, keys), earlier };
}
