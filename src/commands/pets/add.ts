import { randomUUID } from 'node:crypto';
import { helpProse } from '../../cmdutil/help-text.js';
import { Option, type Command } from 'commander';
import { parseBatchId } from '../../bulk/batch.js';
import { parseConcurrency, parseIdempotencyKey, parseStatus } from '../../cmdutil/flags.js';
import { replayedNotice, UNKNOWN_PET_OUTCOME } from '../../core/unknown-outcome.js';
import { endInterrupted, finishWrite } from '../../cmdutil/finish-write.js';
import type { RunVerb } from '../../cmdutil/run-verb.js';
import type { RunOutput, RunServices, RunState } from '../../context/context.js';
import type { Env } from '../../core/io.js';
import { BULK_CONCURRENCY, IDEMPOTENCY_KEY_WINDOW } from '../../core/contract.js';
import { durationText, parseDuration } from '../../core/duration.js';
import { UsageError } from '../../core/errors.js';
import { parseInt64 } from '../../core/int64.js';
import { sanitizeLine } from '../../core/sanitize.js';
import { PET_STATUSES, type NewPet } from '../../core/interface.js';
import { runPetsAddFile, type PetsAddFileOptions } from './add-file.js';
import { PET_COLUMNS } from './columns.js';

interface Flags {
  name?: string;
  categoryId?: string;
  status?: string;
  idempotencyKey?: string;
  dryRun?: boolean;
  file?: string;
  concurrency?: string;
  failFast?: boolean;
  journal?: string;
  resume?: string;
  retryFailed?: boolean;
  retryUnknown?: boolean;
  printAll?: boolean;
  batchId?: string;
  keyWindow?: string;
  ignoreKeyWindow?: boolean;
}

/** One pet from flags, or many from a file (a new run, or one resumed from its journal). */
export type PetsAddOptions =
  { pet: PetDraft; idempotencyKey: string | undefined; dryRun: boolean } | PetsAddFileOptions;

/** What the flags gave of one pet, each value checked; what is missing is asked for, or refused. */
export type PetDraft = Partial<NewPet>;

function toPetDraft(flags: Flags): PetDraft {
  if (flags.name?.trim() === '') throw new UsageError('--name must not be empty');
  const pet: PetDraft = {};
  if (flags.name !== undefined) pet.name = flags.name;
  if (flags.categoryId !== undefined) {
    pet.categoryId = parseInt64(flags.categoryId, '--category-id');
  }
  const status = parseStatus(flags.status);
  if (status !== undefined) pet.status = status;
  return pet;
}

/**
 * The pet the flags describe; where they leave out its name or category, those are asked for
 * at a terminal (and then its status, from the interface's values or none), else refused.
 */
async function completePet(ctx: RunOutput, draft: PetDraft): Promise<NewPet> {
  const { name, categoryId } = draft;
  if (name !== undefined && categoryId !== undefined) return { ...draft, name, categoryId };
  if (!ctx.settings.prompts) {
    throw new UsageError('pets add needs --name and --category-id', {
      hint: 'Example: petstore pets add --name Rex --category-id 1 (at a terminal, petstore asks for what is missing)',
    });
  }
  const { askChoice, askText } = await import('../../output/ask.js');
  const pet: NewPet = {
    name:
      name ??
      (await askText(ctx.io, {
        message: 'Name',
        check: (answer) => (answer.trim() === '' ? 'a name is needed' : undefined),
      })),
    categoryId:
      categoryId ??
      parseInt64(
        await askText(ctx.io, { message: 'Category id', check: int64Problem }),
        'the category id',
      ),
  };
  const status =
    draft.status ??
    (await askChoice(ctx.io, {
      message: 'Status',
      choices: [
        { name: '(none)', value: undefined },
        ...PET_STATUSES.map((value) => ({ name: value, value })),
      ],
    }));
  if (status !== undefined) pet.status = status;
  return pet;
}

/** What is wrong with a category id as typed, if anything (the interface's int64). */
function int64Problem(answer: string): string | undefined {
  try {
    parseInt64(answer, 'the category id');
    return undefined;
  } catch {
    return 'a whole number (int64)';
  }
}

const MANY_ONLY = [
  'batchId',
  'keyWindow',
  'ignoreKeyWindow',
  'concurrency',
  'failFast',
  'journal',
  'resume',
  'retryFailed',
  'retryUnknown',
  'printAll',
] as const;

export function toPetsAddOptions(flags: Flags, env: Env = {}): PetsAddOptions {
  const dryRun = flags.dryRun === true;
  if (flags.file === undefined && flags.resume === undefined) {
    const misplaced = MANY_ONLY.filter((key) => flags[key] !== undefined && flags[key] !== false);
    if (misplaced.length > 0) {
      throw new UsageError(
        `${misplaced.map(toFlag).join(', ')} go${misplaced.length === 1 ? 'es' : ''} with --file or --resume`,
      );
    }
    return {
      pet: toPetDraft(flags),
      idempotencyKey: parseIdempotencyKey(flags.idempotencyKey),
      dryRun,
    };
  }
  const resumeOnly = (['retryFailed', 'printAll'] as const).filter((key) => flags[key]);
  if (resumeOnly.length > 0 && flags.resume === undefined) {
    throw new UsageError(
      `${resumeOnly.map(toFlag).join(' and ')} go${resumeOnly.length === 1 ? 'es' : ''} with --resume JOURNAL`,
    );
  }
  return {
    file: flags.file,
    resume: flags.resume,
    journal: flags.journal,
    concurrency: parseConcurrency(flags.concurrency),
    failFast: flags.failFast === true,
    dryRun,
    retryFailed: flags.retryFailed === true,
    retryUnknown: flags.retryUnknown === true,
    printAll: flags.printAll === true,
    batchId: flagOrEnv(flags.batchId, '--batch-id', env, 'PETSTORE_BATCH_ID', parseBatchId),
    keyWindow: {
      windowMs:
        flagOrEnv(flags.keyWindow, '--key-window', env, 'PETSTORE_KEY_WINDOW', parseKeyWindow) ??
        IDEMPOTENCY_KEY_WINDOW.defaultMs,
      marginMs: IDEMPOTENCY_KEY_WINDOW.marginMs,
      ignore: flags.ignoreKeyWindow === true,
    },
  };
}

/** A flag's value, else its environment variable's (an empty one is unset), parsed. */
function flagOrEnv<T>(
  flag: string | undefined,
  flagName: string,
  env: Env,
  variable: string,
  parse: (text: string, source: string) => T,
): T | undefined {
  if (flag !== undefined) return parse(flag, flagName);
  const value = env[variable];
  return value === undefined || value === '' ? undefined : parse(value, variable);
}

/** How long the service keeps Idempotency-Keys: a duration longer than the margin. */
function parseKeyWindow(text: string, source: string): number {
  const ms = parseDuration(text, IDEMPOTENCY_KEY_WINDOW.maxMs);
  if (ms === undefined || ms <= IDEMPOTENCY_KEY_WINDOW.marginMs) {
    throw new UsageError(
      `${source} must be a duration longer than ${durationText(IDEMPOTENCY_KEY_WINDOW.marginMs)}, such as 24h or 7d (got ${JSON.stringify(text)})`,
      { hint: 'Give how long the service keeps an Idempotency-Key (24h for the sandbox).' },
    );
  }
  return ms;
}

function toFlag(key: string): string {
  return `--${key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;
}

export async function runPetsAdd(
  ctx: RunOutput & RunServices & RunState,
  options: PetsAddOptions,
): Promise<void> {
  if (!('pet' in options)) {
    await runPetsAddFile(ctx, options);
    return;
  }
  const pet = await completePet(ctx, options.pet);
  const client = await ctx.client();
  // Chosen here, not by the client, so an interrupted run can name it.
  const idempotencyKey = options.idempotencyKey ?? randomUUID();
  // Set when the service answers from the first request with this key.
  const answer = { replayed: false };
  const write = {
    idempotencyKey,
    onReplayed: () => {
      answer.replayed = true;
      ctx.notice(replayedNotice('pet'));
    },
  };
  if (options.dryRun) {
    ctx.printRequest(client.previewCreatePet(pet, write));
    return;
  }
  const { result: created, interrupted } = await finishWrite(
    ctx,
    () => client.createPet(pet, write),
    UNKNOWN_PET_OUTCOME,
    idempotencyKey,
  );
  await ctx.render(created, PET_COLUMNS);
  const added = `pet ${created.id.toString()} (${sanitizeLine(created.name)})`;
  if (interrupted) endInterrupted(interrupted, `${added} was added`);
  // A replay was said as such: this run added nothing.
  if (ctx.io.stderrIsTTY && !answer.replayed) {
    const target = await ctx.target();
    ctx.notice(`Added ${added} to ${target.label}.`);
  }
}

/** The flags of one pet, which a bulk run's records replace. */
const ONE_PET_FLAGS = ['name', 'categoryId', 'status', 'idempotencyKey'];

export function registerPetsAdd(pets: Command, runVerb: RunVerb): void {
  pets
    .command('add')
    .description('Add an animal (POST /pets)')
    .option('--name <name>', "the animal's name")
    .option('--category-id <int64>', 'identifier of its category')
    .option('--status <status>', 'available, pending or sold')
    .addOption(
      new Option(
        '--file <path>',
        'add many: a JSON array or NDJSON of NewPet records, - for stdin',
      ).conflicts(ONE_PET_FLAGS),
    )
    .option(
      '--concurrency <n>',
      `with --file: requests at once, ${BULK_CONCURRENCY.min} to ${BULK_CONCURRENCY.max} (default ${BULK_CONCURRENCY.default})`,
    )
    .option('--fail-fast', 'with --file: start no more requests after the first failure')
    .option(
      '--idempotency-key <key>',
      'one pet: send with this Idempotency-Key (default: a new UUID)',
    )
    .option(
      '--batch-id <id>',
      'with --file: the batch its keys are made from (env PETSTORE_BATCH_ID; default: a new one); the same batch and input send the same keys, so re-running a CI job creates nothing twice',
    )
    .option('--dry-run', 'print the request(s) that would be sent (key redacted); send nothing')
    .option('--journal <file>', 'with --file: where to journal the run (default: beside the input)')
    .addOption(
      new Option('--resume <journal>', 'complete an interrupted run from its journal').conflicts([
        ...ONE_PET_FLAGS,
        'journal',
        'batchId',
      ]),
    )
    .option('--retry-failed', 'with --resume: send again the records the service rejected')
    .option(
      '--retry-unknown',
      'with --file or --resume: send again, with the same key, records of unknown outcome',
    )
    .option('--print-all', 'with --resume: also print the pets earlier runs printed')
    .option(
      '--key-window <duration>',
      'how long the service keeps an Idempotency-Key (env PETSTORE_KEY_WINDOW; default 24h): a resume refuses to send again keys first sent longer ago, less 1h',
    )
    .option(
      '--ignore-key-window',
      'with --retry-unknown: send again keys past the window all the same (each may be created twice)',
    )
    .addHelpText(
      'after',
      helpProse(`
Examples:
  $ petstore pets add --name Rex --category-id 1
  $ petstore pets add --name Tom --category-id 2 --status pending --json
  $ petstore pets add --file pets.ndjson --concurrency 8 > created.ndjson
  $ petstore pets add --resume pets.ndjson.2026-11-23T10-00-00-000Z.journal --retry-unknown >> created.ndjson
  $ petstore pets add --name Rex --category-id 1 --dry-run

With --file every record is checked before anything is sent. Each created pet is written to
stdout (one JSON line) as soon as the service confirms it, so an interrupted run still leaves
a record of what it created. The run's journal (named on stderr) lets --resume complete it
without creating any record twice; it prints only the pets earlier runs did not, so the
outputs of all runs together hold one line per record (--print-all prints every one).

Each record's Idempotency-Key stands for one attempt to create that one record: it comes from
the run's batch, the input's file name and the record's position, never from its content, so
two records alike are two pets. A new run is a new batch; --resume continues its journal's.
To re-run a CI job safely where its journal is gone, name the batch: the same --batch-id and
input send the same keys, and a service that honours them creates nothing twice (the sandbox
does), e.g. PETSTORE_BATCH_ID="pets-$CI_PIPELINE_ID" petstore pets add --file pets.ndjson`),
    )
    .action((flags: Flags, command: Command) =>
      runVerb(command, (env) => toPetsAddOptions(flags, env), runPetsAdd),
    );
}
