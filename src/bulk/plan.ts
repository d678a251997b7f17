import { Cursor } from '../core/cursor.js';
import { UsageError } from '../core/errors.js';
import type { NewPet } from '../core/interface.js';
import { recordKey } from './batch.js';
import { inShard, type Shard } from './check.js';
import type { EarlierRecord } from './ledger.js';
import type { RecordState } from './record-states.js';
import { recordDigest, type ReadRecord } from './records.js';

/**
 * Which records a run sends, decided as the input is read the second time: a new run sends
 * every valid record of its shard; a resumed run skips those its journal has created and,
 * unless asked, the failed and unknown (an unknown one goes again with its journaled key, a
 * failed one with a new key). Each record's key is made from its place in the input.
 */

/** One record to send: its 0-based index (valid records counted) and the key it goes with. */
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

export interface RetryChoices {
  /** Send again records the service rejected (the next attempt, with its own key). */
  retryFailed: boolean;
  /** Send again records whose outcome is unknown, each with its journaled Idempotency-Key. */
  retryUnknown: boolean;
}

/** What a run plans from. */
export interface PlanInput {
  /** The input's records, read again from its start. */
  records: AsyncIterable<ReadRecord> | Iterable<ReadRecord>;
  /** How many valid records the first reading found (of the shard). */
  expected: number;
  batch: string;
  /** The input's name as the batch's first run read it: part of every key. */
  inputName: string;
  /** The batch was named (--batch-id): a run before this one may have sent its keys. */
  namedBatch: boolean;
  shard: Shard | undefined;
  /** Each record read again is the one the first reading (or the journal) has: false if not. */
  same(record: number, digest: string): boolean;
  /** What the journal of the run this one completes says, record by record, in order. */
  states?: Iterable<[number, RecordState]> | undefined;
}

/** The input changed between its two readings: the run stops, what it sent journaled. */
export function changedWhileRead(record: number): UsageError {
  return new UsageError(
    `the input changed while the run read it: record ${record} is not what its first reading found; no record after it was sent`,
    {
      hint: 'Keep the input as it is while a run reads it, then complete the run from its journal.',
    },
  );
}

/**
 * The records to send, in input order, each made when it is asked for; records earlier runs
 * left failed or unknown, and not sent now, are told to `earlier` as they are passed.
 */
export async function* planRecords(
  input: PlanInput,
  retry: RetryChoices,
  earlier: (record: EarlierRecord) => void,
): AsyncGenerator<BulkRecord> {
  const states = new Cursor(input.states ?? []);
  let record = 0;
  const keyOf = (position: number, attempt?: number) =>
    recordKey(input.batch, input.inputName, position, attempt);
  for await (const read of input.records) {
    if (read.pet === undefined || !inShard(input.shard, read.position)) continue;
    const pet = read.pet;
    const digest = recordDigest(pet);
    if (++record > input.expected || !input.same(record, digest)) throw changedWhileRead(record);
    const state = states.skipWhile(([at]) => at < record);
    const known = state?.[0] === record ? state[1] : undefined;
    const index = record - 1;
    const send = (key: string, maybeSentBefore: boolean, resendsUnknown = false): BulkRecord => ({
      index,
      pet,
      digest,
      key,
      maybeSentBefore,
      resendsUnknown,
    });
    if (known === undefined) yield send(keyOf(read.position), input.namedBatch);
    else if (known.outcome === 'failed') {
      // The next attempt's key: one a copy of this journal, resumed too, makes alike.
      if (retry.retryFailed) yield send(keyOf(read.position, known.attempt + 1), false);
      else {
        const error = known.error ?? { code: 'failed', message: 'failed earlier', status: 0 };
        earlier({ index, name: pet.name, error });
      }
    } else if (known.outcome === 'unknown') {
      if (retry.retryUnknown) yield send(known.key, true, true);
      else earlier({ index, name: pet.name, error: undefined });
    }
  }
  if (record < input.expected) throw changedWhileRead(record + 1);
}
