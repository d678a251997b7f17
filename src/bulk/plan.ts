import { option, phrase } from '../core/phrase.js';
import { UsageError } from '../core/errors.js';
import type { NewPet, Pet } from '../core/interface.js';
import type { ErrorSummary } from './journal-entries.js';
import type { JournalContents } from './record-states.js';
import { firstChangedRecord, type InputDigests, type PetRecords } from './records.js';

/** One record to send: its 0-based position in the input, and the key it is sent with. */
export interface BulkRecord {
  index: number;
  pet: NewPet;
  /** recordDigest(pet), which the journal keeps. */
  digest: string;
  key: string;
  /** Its key may have been sent before this run: by an earlier run, or of a named batch. */
  maybeSentBefore: boolean;
  /** Its key is the one an earlier run of this journal sent without learning the outcome. */
  resendsUnknown: boolean;
}

/** What a resumed run found in its journal and does not send again. */
export interface EarlierOutcomes {
  /** `printed`: an earlier run wrote the pet to its stdout. */
  created: { index: number; pet: Pet; printed: boolean; replayed: boolean }[];
  failed: { index: number; error: ErrorSummary }[];
  unknown: number[];
}

/** The records a run sends, in input order, each made (record and key) when it is needed. */
export interface SendList {
  readonly length: number;
  /** The input index (0-based) of the record at this position of the list. */
  indexAt(position: number): number;
  record(position: number): BulkRecord;
}

export interface Plan {
  send: SendList;
  earlier: EarlierOutcomes;
}

export interface RetryChoices {
  /** Send again records the service rejected (the next attempt, with its own key). */
  retryFailed: boolean;
  /** Send again records whose outcome is unknown, each with its journaled Idempotency-Key. */
  retryUnknown: boolean;
}

/** What a run plans from: the input and its digests, and the key of each record's first attempt. */
export interface PlanInput {
  records: PetRecords;
  digests: InputDigests;
  /** The key of an attempt (1: the first) at the record at this 1-based position. */
  recordKey: (record: number, attempt?: number) => string;
  /** The batch was named (--batch-id): a run before this one may have sent its keys. */
  namedBatch: boolean;
}

function changed(why: string, batch: string): UsageError {
  return new UsageError(`the input changed since the journaled run: ${why}; nothing was sent`, {
    // A new run of another batch would send every record again, the created ones too.
    hint: phrase`Resume with the input the run read (FILE). Records fixed where they were (none added, removed or moved) are sent by running the file again as the same batch, ${option('batchId', batch)}, without ${option('resume')}: each key stands for one place in the input.`,
  });
}

/**
 * Refuses an input that is not, record for record, the one the journal was written for: any
 * record changed, added or removed, sent or not yet, is named (the first of them).
 */
export function checkSameInput(input: PlanInput, journal: JournalContents): void {
  const { records, digests } = input;
  if (journal.records !== records.count) {
    throw changed(
      `it holds ${records.count} record${records.count === 1 ? '' : 's'}, the run read ${journal.records}`,
      journal.batch,
    );
  }
  let first: number | undefined;
  if (journal.digest !== undefined && journal.digest !== digests.whole) {
    first =
      journal.digests === undefined ? undefined : firstChangedRecord(digests, journal.digests);
    if (first === undefined) throw changed('its records differ', journal.batch);
  }
  // Journals of earlier versions have only the digests of the records they sent; a compacted
  // one, the first 8 bytes of each (as its header).
  for (const [record, state] of journal.states) {
    if (
      !digests.records[record - 1]!.startsWith(state.digest) &&
      (first === undefined || record - 1 < first)
    ) {
      first = record - 1;
    }
  }
  if (first !== undefined) throw changed(`record ${first + 1} differs`, journal.batch);
}

/** Keys other than the first attempt's: the journaled one of an unknown, a new one. */
type Keys = Map<number, { key: string; sentBefore: boolean }>;

function sendList(input: PlanInput, indexes: number[], keys: Keys): SendList {
  return {
    length: indexes.length,
    indexAt: (position) => indexes[position]!,
    record: (position) => {
      const index = indexes[position]!;
      const other = keys.get(index);
      return {
        index,
        pet: input.records.at(index),
        digest: input.digests.records[index]!,
        key: other?.key ?? input.recordKey(index + 1),
        // A first key no run of this journal sent (it journals each key before sending it):
        // sent before only by a run of another journal with the same, named, batch.
        maybeSentBefore: other?.sentBefore ?? input.namedBatch,
        resendsUnknown: other?.sentBefore === true,
      };
    },
  };
}

/**
 * Which records a run sends. A new run sends all. A resumed run checks first that the input is
 * the one journaled, then skips the created ones and, unless asked, the failed and unknown:
 * an unknown one is sent again with its journaled key, a failed one with a new key.
 */
export function planRun(
  input: PlanInput,
  journal: JournalContents | undefined,
  retry: RetryChoices,
): Plan {
  const earlier: EarlierOutcomes = { created: [], failed: [], unknown: [] };
  const keys: Keys = new Map();
  if (!journal) {
    const all = Array.from({ length: input.records.count }, (_, index) => index);
    return { send: sendList(input, all, keys), earlier };
  }
  checkSameInput(input, journal);
  const indexes: number[] = [];
  for (let index = 0; index < input.records.count; index++) {
    const state = journal.states.get(index + 1);
    if (!state) indexes.push(index);
    else if (state.outcome === 'created') {
      const { pet, printed, replayed } = state;
      earlier.created.push({ index, pet, printed, replayed });
    } else if (state.outcome === 'failed') {
      if (retry.retryFailed) {
        indexes.push(index);
        // The next attempt's key: one a copy of this journal, resumed too, makes alike.
        keys.set(index, { key: input.recordKey(index + 1, state.attempt + 1), sentBefore: false });
      } else {
        const error = state.error ?? { code: 'failed', message: 'failed earlier', status: 0 };
        earlier.failed.push({ index, error });
      }
    } else if (retry.retryUnknown) {
      indexes.push(index);
      keys.set(index, { key: state.key, sentBefore: true });
    } else earlier.unknown.push(index);
  }
  return { send: sendList(input, indexes, keys), earlier };
}
