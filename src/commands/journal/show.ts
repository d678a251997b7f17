import type { Command } from '@commander-js/extra-typings';
import { helpProse } from '../../cmdutil/help-text.js';
import type { RunVerb } from '../../cmdutil/run-verb.js';
import { journalsDir } from '../../config/paths.js';
import type { RunOutput, RunServices } from '../../context/context.js';
import type { Column } from '../../output/render.js';
import type { JournalRecord, ShownJournal } from '../../operations/journal/show.js';

export interface JournalShowOptions {
  /** A journal's path, or the batch id of one in the journals folder. */
  journal: string;
}

/** The columns of a record; JSON gives every field. */
const RECORD_COLUMNS: Column<JournalRecord>[] = [
  { header: 'record', value: (row) => row.record },
  {
    header: 'outcome',
    value: (row) => row.outcome,
    tone: (row) => (row.outcome === 'created' ? 'good' : 'warn'),
  },
  {
    header: 'id',
    value: (row) => (row.pet === undefined ? undefined : String(row.pet.id)),
    placeholder: '-',
  },
  // A record not created is named as it was sent.
  {
    header: 'name',
    value: (row) => row.pet?.name ?? row.error?.name,
    placeholder: '-',
    shrinkable: true,
  },
  { header: 'attempt', value: (row) => row.attempt, placeholder: '-' },
  {
    header: 'error',
    value: (row) =>
      row.error === undefined ? undefined : `${row.error.status || ''} ${row.error.message}`.trim(),
    placeholder: '-',
    shrinkable: true,
  },
  { header: 'key', value: (row) => row.key, placeholder: '-', shrinkable: true, yieldsFirst: true },
];

/** `journal show BATCH|PATH`: every record of a journal, one row (or NDJSON line) each. */
export async function runJournalShow(
  ctx: RunOutput & Pick<RunServices, 'env'>,
  options: JournalShowOptions,
): Promise<void> {
  // Loaded when the command runs: building the program for another command reads no journal code.
  const { showJournal } = await import('../../operations/journal/show.js');
  const rows = await ctx.openRows(RECORD_COLUMNS);
  // At a terminal the journal's path is cut from its start to fit (its batch names it whole).
  const width = ctx.settings.errorsAsJson ? undefined : ctx.io.stderrColumns;
  const fit = width === undefined ? undefined : (await import('../../output/table.js')).fittedEnd;
  const about = (journal: ShownJournal) => {
    const path = fit === undefined ? journal.path : fit(journal.path, width! - 'Journal '.length);
    ctx.notice(`Journal ${path}`);
    ctx.notice(aboutJournal(journal));
  };
  const shown = await showJournal(options.journal, journalsDir(ctx.env), (records, journal) => {
    // Said before the first row: which journal this is.
    if (rows.count === 0) about(journal);
    rows.write(records);
  });
  if (rows.count === 0) about(shown);
  rows.end();
}

/** The journal's batch, input, target, and what its last run set aside. */
function aboutJournal({ header }: ShownJournal): string {
  const input =
    header.client !== undefined
      ? `the pets an agent gave (${header.client})`
      : header.input === '-'
        ? 'standard input'
        : header.input;
  // Records set aside (--skip-invalid) are not among its records: said, counted, once.
  const aside =
    header.skipInvalid === true
      ? `; its last run set ${header.rejected ?? 0} invalid record(s) aside, not sent`
      : '';
  return `Batch ${header.batch}: ${header.records} records of ${input}, sent to ${header.target}${aside}.`;
}

export function registerJournalShow(journal: Command, runVerb: RunVerb): void {
  const show = journal
    .command('show')
    .argument('<journal>', "a journal's path, or its batch id (as journal list shows)")
    .description('Show every record of a journal: its outcome, the pet it became, its key')
    .addHelpText(
      'after',
      helpProse(`
One row per record of the run's input, in order: created (with the pet's id and name),
failed (refused by the service, with why), unknown (sent, no answer kept: a resume with
--retry-unknown sends it again with the same Idempotency-Key) or unsent. With -o ndjson, one
JSON line per record; -o json, csv and table as for every command.

Examples:
  $ petstore journal show 2f6c1c0e-8d2b-4a8e-9b1e-0c1d2e3f4a5b
  $ petstore journal show ./run.journal -o ndjson |
      jq -c 'select(.outcome != "created")'`),
    );
  show.action((journalArg) => runVerb(show, () => ({ journal: journalArg }), runJournalShow));
}
