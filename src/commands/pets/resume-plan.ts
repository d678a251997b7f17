import { hash, randomUUID } from 'node:crypto';
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

/**
 * The Idempotency-Key of each record: a digest of the whole input and the record's position
 * in it. Running the same input again sends the same keys, so a service that honours them
 * answers what it did the first time instead of creating the pets twice, even where no
 * journal of the first run is at hand (a CI job run again on a fresh machine). Another input,
 * even one sharing records with it, has keys of its own.
 */
function inputKeys(inputText: string): (index: number) => string {
  const input = hash('sha256', inputText).slice(0, 24);
  return (index) => `pets-${input}-${index + 1}`;
}

function sendList(
  records: PetRecords,
  indexes: number[],
  keyOf: (index: number) => string,
): SendList {
  return {
    length: indexes.length,
    indexAt: (position) => indexes[position]!,
    record: (position) => {
      const index = indexes[position]!;
      return { index, pet: records.at(index), key: keyOf(index) };
    },
  };
}

/**
 * Which records a run sends. A new run sends all, each with the key the input gives it. A
 * resumed run checks first that the input is the one journaled (same count, same digest for every
 * journaled record), then skips the created ones and, unless asked, the failed and unknown.
 */
export function planRun(
  records: PetRecords,
  /** The input's text, as read: the keys come from it. */
  inputText: string,
  journal: JournalContents | undefined,
  retry: RetryChoices,
): Plan {
  const earlier: EarlierOutcomes = { created: [], failed: [], unknown: [] };
  const inputKey = inputKeys(inputText);
  if (!journal) {
    const all = Array.from({ length: records.count }, (_, index) => index);
    return { send: sendList(records, all, inputKey), earlier };
  }
  /** Keys other than the content's: the journaled key of an unknown, a new one after a rejection. */
  const keys = new Map<number, string>();
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
      if (retry.retryFailed) {
        indexes.push(index);
        keys.set(index, randomUUID());
      } else {
        const error = state.error ?? { code: 'failed', message: 'failed earlier', status: 0 };
        earlier.failed.push({ index, error });
      }
    } else if (retry.retryUnknown) {
      indexes.push(index);
      keys.set(index, state.key);
    } else earlier.unknown.push(index);
  }
  const keyOf = (index: number) => keys.get(index) ?? inputKey(index);
  return { send: sendList(records, indexes, keyOf), earlier };
}
