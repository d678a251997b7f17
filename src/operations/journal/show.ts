import { bootId } from '../../core/boot-id.js';
import type { Pet } from '../../core/interface.js';
import type { ErrorSummary } from '../../bulk/journal-entries.js';
import type { JournalContents } from '../../bulk/record-states.js';
import { JournalStore } from '../../bulk/journal-store.js';
import { findJournal } from './find.js';

/** What a journal says of one record of its input: its outcome, key and what it became. */
export interface JournalRecord {
  /** Its 1-based position in the input. */
  record: number;
  /** created; failed (refused by the service); unknown (sent, no answer kept); unsent. */
  outcome: 'created' | 'failed' | 'unknown' | 'unsent';
  /** The Idempotency-Key of its last attempt, and which attempt that is (1 for the first). */
  key: string | undefined;
  attempt: number | undefined;
  /** The pet it became, when created. */
  pet: Pet | undefined;
  /** A run printed the created pet to its standard output. */
  printed: boolean | undefined;
  /** The service answered from an earlier send of its key. */
  replayed: boolean | undefined;
  /** Why it failed, or what made its outcome unknown, where the journal says. */
  error: ErrorSummary | undefined;
}

/** A journal, whole: its batch and where it sent, then every record of its input, in order. */
export interface ShownJournal {
  path: string;
  contents: JournalContents;
  records: JournalRecord[];
}

/**
 * The journal `given` names (a path, or a batch id of the journals folder), read as a person
 * or a script reads it: one entry for every record of the input, sent or not.
 */
export async function showJournal(given: string, journalsDir: string): Promise<ShownJournal> {
  const path = await findJournal(given, journalsDir);
  const contents = await JournalStore.readAt(path, bootId());
  const records: JournalRecord[] = [];
  for (let record = 1; record <= contents.records; record++) {
    const state = contents.states.get(record);
    if (state === undefined) {
      records.push({
        record,
        outcome: 'unsent',
        key: undefined,
        attempt: undefined,
        pet: undefined,
        printed: undefined,
        replayed: undefined,
        error: undefined,
      });
      continue;
    }
    const created = state.outcome === 'created';
    records.push({
      record,
      outcome: state.outcome,
      key: state.key,
      attempt: state.attempt,
      pet: created ? state.pet : undefined,
      printed: created ? state.printed : undefined,
      replayed: created ? state.replayed : undefined,
      error: created ? undefined : state.error,
    });
  }
  return { path, contents, records };
}
