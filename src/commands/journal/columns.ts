import { durationText } from '../../core/duration.js';
import type { Column } from '../../output/render.js';
import type { JournalSummary } from '../../operations/journal/list.js';

/** How long ago a journal was last written, as a person reads it. */
const age = (journal: JournalSummary, now: number) =>
  durationText(Math.max(0, now - Date.parse(journal.updated)));

/** A count, unless a run holds the journal: what it holds is then that run's to say. */
const count = (journal: JournalSummary, value: number) => (journal.inUse ? undefined : value);

/** The columns of a journal; JSON gives every field of its summary. */
export function journalColumns(now: number): Column<JournalSummary>[] {
  return [
    { header: 'batch', value: (journal) => journal.batch, placeholder: '-' },
    { header: 'input', value: (journal) => journal.input, placeholder: '-', shrinkable: true },
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
    { header: 'path', value: (journal) => journal.path, shrinkable: true },
  ];
}
