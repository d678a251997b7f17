import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { readInputFile } from '../../cmdutil/read-input.js';
import { dataDir } from '../../config/paths.js';
import { SANDBOX_PROFILE } from '../../config/profiles.js';
import type { Context } from '../../context/context.js';
import type { Target } from '../../context/target.js';
import { BULK_MAX_BYTES } from '../../core/contract.js';
import { UsageError } from '../../core/errors.js';
import { stringifyJson } from '../../core/json.js';
import { makeFolder } from '../../core/make-folder.js';
import { runPetsAddBulk } from './add-bulk.js';
import { journalReadError, JournalWriter, readJournal } from './journal.js';
import { lockJournal } from './journal-lock.js';
import { parsePetsFile } from './pets-file.js';
import { resumeCommand } from './resume-command.js';
import { planRun, type RetryChoices } from './resume-plan.js';

export interface PetsAddFileOptions extends RetryChoices {
  /** --file: the input; with --resume, defaults to the input the journal names. */
  file: string | undefined;
  /** --resume: the journal of the run to complete. */
  resume: string | undefined;
  /** --journal: where a new run keeps its journal. */
  journal: string | undefined;
  concurrency: number;
  failFast: boolean;
  dryRun: boolean;
  /** --print-all: print the pets earlier runs printed too. */
  printAll: boolean;
}

/**
 * Where a new run keeps its journal: beside the input when that folder is writable, else in
 * the data folder. The name carries the time, so no earlier journal is ever overwritten.
 */
async function defaultJournalPath(ctx: Context, input: string): Promise<string> {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  if (input !== '-') {
    const beside = `${resolve(input)}.${stamp}.journal`;
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

/** `pets add --file` and `--resume`: read, check, plan, journal, send. */
export async function runPetsAddFile(ctx: Context, options: PetsAddFileOptions): Promise<void> {
  // A resumed run holds the journal's lock from before it reads it until it ends, so no other
  // run can change what it planned from (a dry run only reads).
  if (options.resume !== undefined) {
    const journal = options.resume;
    await access(journal, constants.R_OK).catch((error: unknown) => {
      throw journalReadError(journal, error);
    });
  }
  const unlock =
    options.resume !== undefined && !options.dryRun ? await lockJournal(options.resume) : undefined;
  try {
    await addFromFile(ctx, options, unlock);
  } catch (error) {
    await unlock?.();
    throw error;
  }
}

/** What the journaled run sent to: its base URL, or the embedded sandbox. */
function serviceOf(target: Target): string {
  return target.profile === SANDBOX_PROFILE && !target.baseUrlOverridden
    ? 'sandbox'
    : (target.baseUrl ?? target.label);
}

async function addFromFile(
  ctx: Context,
  options: PetsAddFileOptions,
  unlock: (() => Promise<void>) | undefined,
): Promise<void> {
  const earlier = options.resume === undefined ? undefined : await readJournal(options.resume);
  const input = options.file ?? earlier?.input;
  if (input === undefined) throw new UsageError('pets add needs --file or --resume');
  if (input === '-' && options.file === undefined) {
    throw new UsageError('the run being resumed read standard input', {
      hint: 'Give the same input again: ... | petstore pets add --file - --resume JOURNAL',
    });
  }
  const source = input === '-' ? 'standard input' : input;
  const text = await readInputFile(input, ctx.io, BULK_MAX_BYTES).catch((error: unknown) => {
    if (options.file !== undefined || !(error instanceof UsageError)) throw error;
    throw new UsageError(`cannot read the input of the journaled run: ${error.message}`, {
      hint: 'If it moved, give it with --file PATH: its records are checked against the journal.',
    });
  });
  const records = parsePetsFile(text, source);
  const plan = planRun(records, input === '-' ? '-' : basename(input), earlier, options);

  const client = await ctx.client();
  const target = await ctx.target();
  const service = serviceOf(target);
  if (earlier?.service !== undefined && earlier.service !== service) {
    throw new UsageError(
      `the journaled run sent to ${earlier.target} (${earlier.service}); this one would send to ${target.label} (${service}); nothing was sent`,
      {
        hint: 'Resume against the same service: give the --profile or --base-url the first run used.',
      },
    );
  }
  if (options.dryRun) {
    // One line per request that would be sent, with the record it is for.
    for (let position = 0; position < plan.send.length; position++) {
      const { index, pet, key } = plan.send.record(position);
      const request = client.previewCreatePet(pet, { idempotencyKey: key });
      ctx.io.stdout.write(stringifyJson({ record: index + 1, ...request }) + '\n');
    }
    ctx.notice(`Dry run: ${plan.send.length} request(s) shown, none sent.`);
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
  const journal =
    options.resume !== undefined && unlock !== undefined
      ? await JournalWriter.append(options.resume, unlock)
      : await JournalWriter.create(options.journal ?? (await defaultJournalPath(ctx, input)));
  const resume = resumeCommand(journal.path, input);
  ctx.notice(`Journal: ${journal.path} (if the run stops, complete it with: ${resume})`);
  try {
    await journal.write({
      type: options.resume !== undefined ? 'resume' : 'run',
      version: 1,
      input: input === '-' ? '-' : resolve(input),
      records: records.count,
      target: target.label,
      service,
      at: new Date().toISOString(),
    });
    await runPetsAddBulk(ctx, {
      total: records.count,
      send: plan.send,
      earlier: plan.earlier,
      concurrency: options.concurrency,
      failFast: options.failFast,
      resendUnknown: options.retryUnknown,
      printAll: options.printAll,
      journal,
      resumeCommand: resume,
    });
  } finally {
    await journal.close();
  }
}
