import { bootId } from '../../core/boot-id.js';
import { Cursor } from '../../core/cursor.js';
import type { Pet } from '../../core/interface.js';
import type { ErrorSummary } from '../../bulk/journal-entries.js';
import type { JournalHeader, RecordState } from '../../bulk/record-states.js';
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

/** A journal: where it is, and its batch and where it sent (its records go to `onRecords`). */
export interface ShownJournal {
  path: string;
  header: JournalHeader;
}

/** How many records are handed on at a time. */
const BATCH = 500;

/**
 * The journal `given` names (a path, or a batch id of the journals folder), read as a person
 * or a script reads it: one entry for every record of the input, sent or not, handed to
 * `onRecords` a few hundred at a time (a journal of millions is never held at once).
 */
export async function showJournal(
  given: string,
  journalsDir: string,
  onRecords: (records: JournalRecord[], journal: ShownJournal) => void,
): Promise<ShownJournal> {
  const path = await findJournal(given, journalsDir);
  return JournalStore.reading(path, (journal) => {
    const header = journal.header();
    const states = new Cursor(journal.states(bootId()));
    let batch: JournalRecord[] = [];
    for (let record = 1; record <= header.records; record++) {
      const state = states.skipWhile(([at]) => at < record);
      batch.push(entryOf(record, state?.[0] === record ? state[1] : undefined));
      if (batch.length === BATCH) {
        onRecords(batch, { path, header });
        batch = [];
      }
    }
    if (batch.length > 0) onRecords(batch, { path, header });
    return { path, header };
  });
}

function entryOf(record: number, state: RecordState | undefined): JournalRecord {
  if (state === undefined) {
    return {
      record,
      outcome: 'unsent',
      key: undefined,
      attempt: undefined,
      pet: undefined,
      printed: undefined,
      replayed: undefined,
      error: undefined,
    };
  }
  const created = state.outcome === 'created';
  return {
    record,
    outcome: state.outcome,
    key: state.key,
    attempt: state.attempt,
    pet: created ? state.pet : undefined,
    printed: created ? state.printed : undefined,
    replayed: created ? state.replayed : undefined,
    error: created ? undefined : state.error,
  };
}
