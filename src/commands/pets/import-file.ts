import { commandLineHint } from '../../output/wording.js';
import { fitLine } from '../../core/wrap-text.js';
import { bulkProgress } from './import-progress.js';
import type { BulkCounts } from '../../bulk/ledger.js';
import { openInputStream } from '../../cmdutil/read-input.js';
import { journalsDir } from '../../config/paths.js';
import type { RunOutput, RunServices, RunState } from '../../context/context.js';
import { stringifyJson } from '../../core/json.js';
import { openReportFile } from '../../core/report-file.js';
import {
  importPets,
  type ImportOutcome,
  type ImportRequest,
} from '../../operations/pets/import.js';
import { NotCreatedReport } from './import-report.js';
import { refuseRejectsTarget } from './import-rejects-target.js';
import { PET_COLUMNS } from './columns.js';
import { resumeCommand } from './resume-command.js';

/** What `pets import` is asked to do. */
export type PetsImportFileOptions = ImportRequest & {
  /** --rejects: where to write the records set aside by --skip-invalid. */
  rejects?: string | undefined;
};

/**
 * `pets import FILE` and `--resume`: the batch operation, with what this front end makes of it.
 * At a terminal: the progress line, the table once, the records not created in one list, one
 * summary. In a pipe: NDJSON per record on stdout, a report per failed record on stderr, and
 * (JSON errors) the summary as the last JSON line before any error.
 */
export async function runPetsImportFile(
  ctx: RunOutput & RunServices & RunState,
  options: PetsImportFileOptions,
): Promise<void> {
  refuseRejectsTarget(options, ctx.io.streamTarget, ctx.env);
  const json = ctx.settings.errorsAsJson;
  const progress = ctx.progressLine();
  const notCreated = new NotCreatedReport(ctx);
  const run = { journal: '', batch: '', rejected: 0 };
  let settled: ReturnType<typeof bulkProgress> | undefined;
  /** The run's last stderr line before any error, in JSON output: what it became. */
  const writeJsonSummary = (counts: BulkCounts) => {
    if (!json || ctx.settings.quiet) return;
    const about = { ...counts, rejected: run.rejected, batchId: run.batch, journal: run.journal };
    ctx.io.stderr.write(stringifyJson({ summary: about }) + '\n');
  };
  let reachedWith: readonly string[] = [];
  const use = { flag: 'pets import', piped: 'cat pets.ndjson | petstore pets import -' };
  const outcome = await importPets(
    {
      // Reached once the input is checked: a bad input is refused as such, whatever the key.
      connect: async () => {
        const client = await ctx.client();
        const target = await ctx.target();
        reachedWith = target.reachedWith;
        const service = target.embeddedSandbox ? 'sandbox' : (target.baseUrl ?? target.label);
        return { client, target: { label: target.label, service } };
      },
      checkTarget: () => ctx.checkTarget(),
      readInput: (input) => openInputStream(input, ctx.io, use),
      openRejects:
        options.rejects === undefined
          ? undefined
          : () => openReportFile(options.rejects!, 'rejects file'),
      journalsDir: journalsDir(ctx.env),
      signals: ctx.io,
      // A run that set invalid records aside is resumed alike: its journal says so.
      resumeCommand: (path, input) => resumeCommand(path, input, reachedWith),
    },
    options,
    {
      onJournal: ({ journal, resume, batch, toSend }) => {
        Object.assign(run, { journal, batch });
        settled = bulkProgress(progress, toSend);
        // Records are created as the run goes: printed whatever --query makes of them.
        ctx.tookEffect();
        if (json) {
          // One object a script reads the journal and the resume command from.
          const resumeWith = toSend === 0 ? undefined : `${resume} --retry-unknown`;
          const about = { path: journal, batchId: batch, toSend, resume: resumeWith };
          if (!ctx.settings.quiet) ctx.io.stderr.write(`${stringifyJson({ journal: about })}\n`);
          return;
        }
        ctx.notice(
          toSend === 0
            ? `Journal: ${journal} (nothing left to send: every record has an outcome)`
            : `Journal: ${journal} (if the run stops, complete it with: ${resume} --retry-unknown)`,
        );
      },
      rows: resumedRows(ctx.lineRows(PET_COLUMNS), options),
      printTable: async (pets, more) => {
        // The run is over: its progress line goes before the table, not among its rows.
        progress.done();
        await ctx.render(pets, PET_COLUMNS);
        await ctx.io.stdoutFlushed();
        if (more > 0) {
          ctx.notice(
            `… and ${more.toLocaleString('en-US')} more pets, not shown (petstore journal show ${run.batch} -o ndjson lists every one).`,
          );
        }
        return !ctx.io.stdoutClosed();
      },
      reportRecord: (error, record, note) => notCreated.record(error, record, note),
      // A line the run says as it goes: fitted to the terminal, broken at spaces.
      say: (line) => ctx.io.stderr.write(`${fitLine(line, ctx.io.stderrColumns)}\n`),
      onSettled: (ledger, state) => settled?.(ledger, state),
      // Stopped at once: the JSON summary line still comes before the error, as always.
      onAbandoned: (counts) => {
        progress.done();
        writeJsonSummary(counts);
      },
      onDryRun: async (record, request) => {
        ctx.printRequest({ record, ...request }, { oneLine: true });
        // Now and then, until stdout has taken what was written: a pipe read slowly holds
        // a few hundred lines, not a million.
        if (record % 256 === 0) await ctx.io.stdoutFlushed();
      },
      warn: (message) => ctx.warn(commandLineHint(message)),
      onRejected: (count, dryRun) => {
        run.rejected = count;
        const records = count === 1 ? '1 invalid record' : `${count} invalid records`;
        const where = options.rejects;
        const written =
          where === undefined
            ? ' (--rejects FILE writes them, with why, to fix and import again)'
            : dryRun
              ? `; a run would write them to ${where}`
              : `, written with why to ${where}`;
        ctx.warn(`${records} set aside, not sent${written}.`);
      },
      stdoutFailure: () => ctx.io.stdoutError(),
    },
  ).finally(() => progress.done());
  if (outcome.kind === 'dry run') {
    ctx.notice(
      `Dry run: ${outcome.requests} request(s) shown, none sent (batch ${outcome.batch}).`,
    );
    return;
  }
  report(ctx, outcome, notCreated, writeJsonSummary);
}

/**
 * A resume's rows follow the first run's on the same output (`>> created.csv`): no second CSV
 * or TSV header in the middle of the file. --print-all writes every row again, header first.
 */
function resumedRows(
  rows: ReturnType<RunOutput['lineRows']>,
  options: PetsImportFileOptions,
): ReturnType<RunOutput['lineRows']> {
  if (rows === undefined || options.resume === undefined || options.printAll) return rows;
  return { ...rows, header: '' };
}

/** What the run did: the earlier prints, the records not created, the summary, the error. */
function report(
  ctx: RunOutput,
  outcome: ImportOutcome,
  notCreated: NotCreatedReport,
  writeJsonSummary: (counts: BulkCounts) => void,
): void {
  if (outcome.printedEarlier > 0) {
    const earlier =
      outcome.printedEarlier === 1 ? '1 pet was' : `${outcome.printedEarlier} pets were`;
    ctx.notice(
      `${earlier} printed by earlier runs of this journal (--print-all prints them again).`,
    );
  }
  notCreated.list(outcome.earlier);
  const { counts, error, summary } = outcome;
  if (ctx.settings.errorsAsJson) writeJsonSummary(counts);
  else if (error === undefined || (outcome.fatal && counts.createdNow + counts.replayed > 0)) {
    const aside = outcome.rejected > 0 ? `; ${outcome.rejected} invalid set aside` : '';
    ctx.notice(error === undefined ? `${summary}${aside}.` : `Stopped: ${summary}${aside}.`);
  }
  if (error !== undefined) throw error;
}
