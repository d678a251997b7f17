import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { RunHeader } from '../../src/bulk/journal-entries.js';
import { writeHeader } from '../../src/bulk/journal-db.js';
import { JournalDraft } from '../../src/bulk/journal-draft.js';
import { JournalStore } from '../../src/bulk/journal-store.js';
import type { JournalHeader, RecordState } from '../../src/bulk/record-states.js';
import { bootId } from '../../src/core/boot-id.js';

/** What a journal holds, whole, as a resume on this machine reads it: its header and states. */
export interface JournalRead extends JournalHeader {
  states: Map<number, RecordState>;
}

/** What a journal holds, read as a resume on this machine reads it. */
export function readJournalFile(path: string): Promise<JournalRead> {
  return JournalStore.reading(path, (journal) => ({
    ...journal.header(),
    states: new Map(journal.states(bootId())),
  }));
}

/**
 * Changes a journal as a kill at some moment would have left it, or as a person might edit
 * it: `sql` run on its database (no run may hold it).
 */
export function editJournal(
  path: string,
  sql: string,
  ...values: (string | number | null)[]
): void {
  const db = new DatabaseSync(path, { timeout: 0 });
  try {
    db.exec('PRAGMA locking_mode = EXCLUSIVE');
    db.prepare(sql).run(...values);
  } finally {
    db.close();
  }
}

/** How many records of a journal ended each way. */
export async function journalOutcomes(path: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const state of (await readJournalFile(path)).states.values()) {
    counts[state.outcome] = (counts[state.outcome] ?? 0) + 1;
  }
  return counts;
}

/**
 * A new journal at `path` as a run makes it: its input's records (each a place and a digest;
 * `header.records` of them, made up, by default), then the header, then opened for its first
 * run. The caller appends entries and closes it.
 */
export function newJournal(
  path: string,
  header: RunHeader,
  inputs: { position: number; digest: string }[] = Array.from(
    { length: header.records },
    (_, index) => ({ position: index + 1, digest: `${index + 1}`.padStart(32, '0') }),
  ),
): JournalStore {
  const draft = JournalDraft.begin(dirname(path));
  inputs.forEach(({ position, digest }, index) => draft.addInput(index + 1, position, digest));
  draft.finish(path, (db) => writeHeader(db, header));
  return JournalStore.create(path, header);
}

/** What a journal holds as a reader with this boot sees it: header, states, widened unknowns. */
export function readJournalAt(path: string, boot: string | undefined, waitMs = 1000) {
  return JournalStore.reading(
    path,
    (journal) => ({
      ...journal.header(),
      states: new Map(journal.states(boot)),
      unknownSinceQueued: journal.counts(boot).unknownSinceQueued,
    }),
    waitMs,
  );
}
