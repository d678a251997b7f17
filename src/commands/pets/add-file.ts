import { parseHttpDate } from '../../core/http-date.js';
import { constants } from 'node:fs';
import { access, realpath } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { concludeBulk } from '../../bulk/conclude.js';
import { lockJournal } from '../../bulk/journal-lock.js';
import { expiredKeys, keyWindowError, resentKeys } from '../../bulk/key-window.js';
import { journalReadError } from '../../bulk/journal-read.js';
import type { RunHeader } from '../../bulk/journal-entries.js';
import { JournalWriter } from '../../bulk/journal-writer.js';
import { bulkProgress } from '../../bulk/progress-line.js';
import { runBulk } from '../../bulk/runner.js';
import { dataDir } from '../../config/paths.js';
import type { BulkCounts } from '../../bulk/ledger.js';
import type { RunOutput, RunServices, RunState } from '../../context/context.js';
import { bootId } from '../../core/boot-id.js';
import { ApiError, UsageError } from '../../core/errors.js';
import { stringifyJson } from '../../core/json.js';
import { makeFolder } from '../../core/make-folder.js';
import type { Pet } from '../../core/interface.js';
import { prepare, type PetsAddFileOptions, type Prepared } from './add-file-plan.js';

export type { PetsAddFileOptions } from './add-file-plan.js';
import { NotCreatedReport } from './add-report.js';
import { PET_COLUMNS } from './columns.js';
import { resumeCommand } from './resume-command.js';

/**
 * Where a new run keeps its journal: beside the input when that folder is writable, else in
 * the data folder. The name carries the time, so no earlier journal is ever overwritten.
 */
async function defaultJournalPath(ctx: RunServices, input: string): Promise<string> {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  if (input !== '-') {
    // Beside the file itself: /dev/stdin or a link name would put it elsewhere (in /dev).
    const real = await realpath(input).catch(() => resolve(input));
    const beside = `${real}.${stamp}.journal`;
    const writable = await access(dirname(beside), constants.W_OK).then(
      () => true,
      () => false,
    );
    if (writable) return beside;
  }
  const folder = join(dataDir(ctx.env), 'journals');
  await makeFolder(folder, 0o700);
  return join(folder, `${input === '-' ? 'stdin' : basename(input)}.${stamp}.journal`);
}

/** Where the locks on journal files (by device and inode) are kept: the user's data folder. */
function locksFolder(ctx: RunServices): string {
  return join(dataDir(ctx.env), 'locks');
}

/** `pets add --file` and `--resume`: read, check, plan, journal, send. */
export async function runPetsAddFile(
  ctx: RunOutput & RunServices & RunState,
  options: PetsAddFileOptions,
): Promise<void> {
  // A resumed run holds the journal's lock from before it reads it until it ends, so no other
  // run can change what it planned from (a dry run only reads).
  if (options.resume !== undefined) {
    const journal = options.resume;
    await access(journal, constants.R_OK).catch((error: unknown) => {
      throw journalReadError(journal, error);
    });
  }
  const unlock =
    options.resume !== undefined && !options.dryRun
      ? await lockJournal(options.resume, locksFolder(ctx))
      : undefined;
  try {
    await addFromFile(ctx, options, unlock);
  } catch (error) {
    await unlock?.();
    throw error;
  }
}

/** The input a run reads, its records planned against the journal of the run it completes. */
async function addFromFile(
  ctx: RunOutput & RunServices & RunState,
  options: PetsAddFileOptions,
  unlock: (() => Promise<void>) | undefined,
): Promise<void> {
  const prepared = await prepare(ctx, options);
  const { input, plan, earlier } = prepared;
  const client = await ctx.client();
  const target = await ctx.target();
  const service = target.embeddedSandbox ? 'sandbox' : (target.baseUrl ?? target.label);
  if (earlier?.service !== undefined && earlier.service !== service) {
    throw new UsageError(
      `the journaled run sent to ${earlier.target} (${earlier.service}); this one would send to ${target.label} (${service}); nothing was sent`,
      {
        hint: 'Resume against the same service: give the --profile or --base-url the first run used.',
      },
    );
  }
  await checkKeyWindow(ctx, options, prepared);
  if (options.dryRun) {
    // One line per request that would be sent, with the record it is for.
    for (let position = 0; position < plan.send.length; position++) {
      const { index, pet, key } = plan.send.record(position);
      const request = client.previewCreatePet(pet, { idempotencyKey: key });
      ctx.printRequest({ record: index + 1, ...request }, { oneLine: true });
    }
    ctx.notice(
      `Dry run: ${plan.send.length} request(s) shown, none sent (batch ${prepared.batch}).`,
    );
    return;
  }
  if (
    options.journal !== undefined &&
    input !== '-' &&
    resolve(options.journal) === resolve(input)
  ) {
    throw new UsageError('--journal names the input file; the journal needs a file of its own', {
      hint: 'Leave --journal out (one is made beside the input), or give another path.',
    });
  }
  const header: RunHeader = {
    type: options.resume !== undefined ? 'resume' : 'run',
    version: 1,
    input: input === '-' ? '-' : resolve(input),
    records: prepared.digests.records.length,
    target: target.label,
    service,
    at: new Date().toISOString(),
    batch: prepared.batch,
    digest: prepared.digests.whole,
    digests: prepared.digests.compact,
    boot: bootId(),
    namedBatch: prepared.namedBatch,
  };
  let journal: JournalWriter;
  if (options.resume !== undefined && unlock !== undefined) {
    journal = await JournalWriter.append(options.resume, unlock);
    const resumed = journal.endedTornLine ? { ...header, afterTornLine: true } : header;
    await journal.write(resumed).catch(async (error: unknown) => {
      await journal.close();
      throw error;
    });
  } else {
    const path = options.journal ?? (await defaultJournalPath(ctx, input));
    journal = await JournalWriter.create(path, header, locksFolder(ctx));
  }
  const resume = resumeCommand(journal.path, input, target.reachedWith);
  ctx.notice(
    prepared.plan.send.length === 0
      ? `Journal: ${journal.path} (nothing left to send: every record has an outcome)`
      : `Journal: ${journal.path} (if the run stops, complete it with: ${resume} --retry-unknown)`,
  );
  try {
    await send(ctx, options, prepared, { journal, resume, target: target.label });
  } finally {
    await journal.close();
  }
}

/**
 * Refuses, before anything is sent, a run that would send again keys the service may have
 * forgotten (see bulk/key-window.ts); a dry run says so instead. The service's clock is asked
 * (one GET) when this machine's finds none past: this machine's may have been set back.
 */
async function checkKeyWindow(
  ctx: RunOutput & RunServices,
  options: PetsAddFileOptions,
  { plan, earlier }: Prepared,
): Promise<void> {
  const resent = resentKeys(plan.send, earlier);
  if (resent.length === 0 || options.keyWindow.ignore) return;
  const local = Date.now();
  let expired = expiredKeys(resent, { local }, options.keyWindow);
  if (expired.length === 0) {
    const page = await (await ctx.client()).listPetsPage({ limit: 1 });
    const service = parseHttpDate(page.headers.date ?? '');
    if (Number.isFinite(service))
      expired = expiredKeys(resent, { local, service }, options.keyWindow);
  }
  if (expired.length === 0) return;
  const error = keyWindowError(expired, options.keyWindow);
  if (!options.dryRun) throw error;
  ctx.warn(error.message.replace(/; nothing was sent$/, ''));
}

/**
 * The pets of a table (a table waits for the end of the run), then, once it left the process
 * whole, each journaled printed: a resume prints only the rows no run printed.
 */
async function printTable(
  ctx: RunOutput,
  rows: { pet: Pet; record: number }[],
  journal: JournalWriter,
): Promise<void> {
  if (rows.length === 0) return;
  await ctx.render(
    rows.map((row) => row.pet),
    PET_COLUMNS,
  );
  await ctx.io.stdoutFlushed();
  if (ctx.io.stdoutClosed()) return;
  for (const { record } of rows) journal.append({ type: 'printed', record });
  journal.flush();
}

/** The service refused a record's Idempotency-Key: sent before with another body. */
function isKeyRefusal(error: unknown): boolean {
  return error instanceof ApiError && /idempotency/i.test(error.code);
}

function keyReusedHint(batch: string): string {
  return `Batch ${batch} sent another record at this position: the input changed since that batch ran (a record edited, inserted or removed). Restore the input, or send new and changed records as a batch of their own (another --batch-id, or none).`;
}

async function send(
  ctx: RunOutput & RunServices & RunState,
  options: PetsAddFileOptions,
  prepared: Prepared,
  run: { journal: JournalWriter; resume: string; target: string },
): Promise<void> {
  const { plan, batch, digests } = prepared;
  const client = await ctx.client();
  const json = ctx.settings.errorsAsJson;
  const progress = ctx.progressLine();
  const notCreated = new NotCreatedReport(ctx);
  /** The run's last stderr line before any error, in JSON output: what it became. */
  const writeJsonSummary = (counts: BulkCounts) => {
    if (!json || ctx.settings.quiet) return;
    const about = { ...counts, batchId: batch, journal: run.journal.path };
    ctx.io.stderr.write(stringifyJson({ summary: about }) + '\n');
  };
  // Records are created as the run goes: their pets are printed whatever --query makes of them.
  ctx.tookEffect();
  let clockJournaled = false;
  const result = await runBulk(
    {
      // The service's clock, once a run: how old its keys are by the service's own reckoning.
      createPet: (pet, write) =>
        client.createPet(pet, {
          ...write,
          onServiceDate: (service) => {
            if (clockJournaled) return;
            clockJournaled = true;
            run.journal.append({ type: 'clock', at: new Date().toISOString(), service });
          },
        }),
      journal: run.journal,
      rows: ctx.lineRows(PET_COLUMNS),
      signals: ctx.io,
      reportRecord: (error, record) =>
        notCreated.record(error, record, isKeyRefusal(error) ? keyReusedHint(batch) : undefined),
      say: (line) => ctx.io.stderr.write(`${line}\n`),
      onSettled: bulkProgress(progress, plan.send.length),
      // Stopped at once: the JSON summary line still comes before the error, as always.
      onAbandoned: (ledger) => {
        progress.done();
        writeJsonSummary(ledger.counts());
      },
    },
    {
      total: digests.records.length,
      send: plan.send,
      earlier: plan.earlier,
      concurrency: options.concurrency,
      failFast: options.failFast,
      resendUnknown: options.retryUnknown,
      printAll: options.printAll,
      target: run.target,
      resumeCommand: run.resume,
    },
  ).finally(() => progress.done());
  await printTable(ctx, result.forTable, run.journal);
  if (result.printedEarlier > 0) {
    const earlier =
      result.printedEarlier === 1 ? '1 pet was' : `${result.printedEarlier} pets were`;
    ctx.notice(
      `${earlier} printed by earlier runs of this journal (--print-all prints them again).`,
    );
  }
  notCreated.list(plan.earlier, (index) => prepared.records.at(index).name);
  const { summary, error } = concludeBulk(result, {
    target: run.target,
    resumeCommand: run.resume,
    journal: run.journal.path,
    stdoutFailure: ctx.io.stdoutError(),
    skipped: { failed: plan.earlier.failed.length, unknown: plan.earlier.unknown.length },
  });
  const counts = result.ledger.counts();
  if (json) writeJsonSummary(counts);
  else if (
    error === undefined ||
    (error === result.fatal && counts.createdNow + counts.replayed > 0)
  ) {
    ctx.notice(error === undefined ? `${summary}.` : `Stopped: ${summary}.`);
  }
  if (error !== undefined) throw error;
}
