import { DatabaseSync } from 'node:sqlite';
import type { JournalContents } from '../../src/bulk/record-states.js';
import { JournalStore } from '../../src/bulk/journal-store.js';
import { bootId } from '../../src/core/boot-id.js';

/** What a journal holds, read as a resume on this machine reads it. */
export function readJournalFile(path: string): Promise<JournalContents> {
  return JournalStore.readAt(path, bootId());
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
