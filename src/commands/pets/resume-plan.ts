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
 * The Idempotency-Key of each record, from the input's name, the record's content and its
 * occurrence (the n-th record with that content). Running the same input again sends the
 * same keys, so a service that honours them answers what it did the first time instead of
 * creating the pets twice, even where no journal of the first run is at hand (a CI job run
 * again on a fresh machine) and even after other records were fixed or added. Identical
 * records are as many pets; an input of another name has keys of its own.
 */
function recordKeys(
  records: PetRecords,
  inputName: string,
): (index: number, digest: string) => string {
  const occurrence = new Uint32Array(records.count);
  const seen = new Map<string, number>();
  for (let index = 0; index < records.count; index++) {
    const digest = recordDigest(records.at(index));
    const count = (seen.get(digest) ?? 0) + 1;
    seen.set(digest, count);
    occurrence[index] = count;
  }
  return (index, digest) =>
    `pets-${hash('sha256', `${inputName}\n${digest}\n${occurrence[index]}`).slice(0, 32)}`;
}

function sendList(
  records: PetRecords,
  indexes: number[],
  keyOf: (index: number, digest: string) => string,
): SendList {
  return {
    length: indexes.length,
    indexAt: (position) => indexes[position]!,
    record: (position) => {
      const index = indexes[position]!;
      const pet = records.at(index);
      const digest = recordDigest(pet);
      return { index, pet, digest, key: keyOf(index, digest) };
    },
  };
}

/**
 * Which records a run sends. A new run sends all, each with the key its input and content give
 * it (recordKeys). A
 * resumed run checks first that the input is the one journaled (same count, same digest for every
 * journaled record), then skips the created ones and, unless asked, the failed and unknown.
 */
export function planRun(
  records: PetRecords,
  /** The input's file name (`-` for stdin): records' keys are made in its name. */
  inputName: string,
  journal: JournalContents | undefined,
  retry: RetryChoices,
): Plan {
  const earlier: EarlierOutcomes = { created: [], failed: [], unknown: [] };
  const inputKey = recordKeys(records, inputName);
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
  const keyOf = (index: number, digest: string) => keys.get(index) ?? inputKey(index, digest);
  return { send: sendList(records, indexes, keyOf), earlier };
}
