import { basename } from 'node:path';
import { durationText } from '../../core/duration.js';
import type { Column } from '../../output/render.js';
import { MIN_BATCH_START } from '../../operations/journal/find.js';
import type { JournalSummary } from '../../bulk/journal-list.js';

/** How long ago a journal was last written, as a person reads it. */
const age = (journal: JournalSummary, now: number) =>
  durationText(Math.max(0, now - Date.parse(journal.updated)));

/**
 * A count, unless a run holds the journal (what it holds is then that run's to say) or it is
 * no journal at all (it counts nothing).
 */
const count = (journal: JournalSummary, value: number) =>
  journal.inUse || journal.foreign === true ? undefined : value;

/**
 * The columns of a journal; JSON gives every field of its summary. For people (a table), at 80
 * columns: each batch by the shortest start of it no other listed batch shares (--resume takes
 * it), the input by its end (its file name), and no path (journal show and -o json have it).
 */
export function journalColumns(
  now: number,
  forPeople?: { batchShown: (batch: string) => string },
): Column<JournalSummary>[] {
  const columns: Column<JournalSummary>[] = [
    {
      header: 'batch',
      value: (journal) =>
        forPeople && journal.batch !== undefined
          ? forPeople.batchShown(journal.batch)
          : journal.batch,
      placeholder: '-',
    },
    {
      header: 'input',
      // A file that is no journal is named by its own name: which file it is, is all it says.
      value: (journal) =>
        journal.foreign === true
          ? basename(journal.path)
          : forPeople
            ? inputShown(journal)
            : journal.input,
      placeholder: '-',
      shrinkable: true,
      keepEnd: true,
    },
    { header: 'created', value: (journal) => count(journal, journal.created), placeholder: '-' },
    { header: 'failed', value: (journal) => count(journal, journal.failed), placeholder: '-' },
    { header: 'unknown', value: (journal) => count(journal, journal.unknown), placeholder: '-' },
    { header: 'unsent', value: (journal) => count(journal, journal.unsent), placeholder: '-' },
    { header: 'age', value: (journal) => age(journal, now) },
    {
      header: 'finished',
      value: (journal) =>
        journal.foreign
          ? 'not a journal'
          : journal.inUse
            ? 'in use'
            : journal.problem !== undefined
              ? 'damaged'
              : journal.finished
                ? 'yes'
                : 'no',
      tone: (journal) => (journal.finished ? 'good' : 'warn'),
    },
    {
      header: 'path',
      value: (journal) => journal.path,
      shrinkable: true,
      keepEnd: true,
      yieldsFirst: true,
    },
  ];
  return forPeople ? columns.filter((column) => column.header !== 'path') : columns;
}

/** Where a batch's records came from, as a person reads it: an agent's by its client. */
export function inputShown(journal: Pick<JournalSummary, 'input' | 'client'>): string | undefined {
  if (journal.client !== undefined) return `agent: ${journal.client}`;
  return journal.input === '-' ? 'standard input' : journal.input;
}

/**
 * Each batch by the shortest start of it (MIN_BATCH_START or more) no other batch shares; a
 * batch as short as that, whole.
 */
export function batchStarts(batches: readonly string[]): (batch: string) => string {
  return (batch) => {
    for (let length = MIN_BATCH_START; length < batch.length; length++) {
      const start = batch.slice(0, length);
      if (batches.every((other) => other === batch || !other.startsWith(start))) return start;
    }
    return batch;
  };
}
