import { DRY_RUN, dryRunOption } from '../../cmdutil/options.js';
import { Option, type Command } from '@commander-js/extra-typings';
import { parseBatchId } from '../../bulk/batch.js';
import { concurrencyFlag, pathFlag } from '../../cmdutil/flags.js';
import { helpProse } from '../../cmdutil/help-text.js';
import type { FlagsOf } from '../../cmdutil/run-verb.js';
// From the contract, not the input readers: declaring a flag loads no parser.
import {
  BULK_CONCURRENCY,
  IDEMPOTENCY_KEY_WINDOW,
  INPUT_FORMATS,
  type InputFormat,
} from '../../core/contract.js';
import { durationText, parseDuration } from '../../core/duration.js';
import { UsageError } from '../../core/errors.js';
import type { Env } from '../../core/io.js';
import type { PetsImportFileOptions } from './import-file.js';
import type { Shard } from '../../bulk/check.js';

/**
 * `pets import`'s argument and flags, each declared once (name, help, parser): their parsed
 * types are what toPetsImportOptions reads.
 */
export function declarePetsImport(pets: Command) {
  return pets
    .command('import')
    .description('Add many animals from a file, each exactly once (POST /pets)')
    .argument(
      '[file]',
      'a JSON array, NDJSON, or CSV or TSV with a header row (what pets list -o writes reads back); - for stdin',
      pathFlag('FILE'),
    )
    .addOption(
      new Option(
        '--input-format <format>',
        'how to read FILE (default: by its extension, else by its first line)',
      ).choices(INPUT_FORMATS),
    )
    .addOption(
      new Option(
        '--template <format>',
        'print the start of an input file (CSV, TSV: the header row; JSON, NDJSON: one example record) and exit',
      )
        .choices(INPUT_FORMATS)
        .conflicts(['resume', 'dryRun']),
    )
    .option(
      '--concurrency <n>',
      `requests at once, ${BULK_CONCURRENCY.min} to ${BULK_CONCURRENCY.max} (default ${BULK_CONCURRENCY.default})`,
      concurrencyFlag,
    )
    .option('--fail-fast', 'start no more requests after the first failure')
    .option(
      '--skip-invalid',
      'send the valid records and set the invalid ones aside (default: one invalid record stops the whole file, nothing sent)',
    )
    .option(
      '--rejects <file>',
      "with --skip-invalid: write the records set aside to FILE, in the input's format, each with a reason column to fix and import again",
      pathFlag('--rejects'),
    )
    .option(
      '--batch-id <id>',
      'the batch its keys are made from (env PETSTORE_BATCH_ID; default: a new one); the same batch and input send the same keys, so re-running a CI job creates nothing twice',
      (text) => parseBatchId(text, '--batch-id'),
    )
    .option(
      '--shard <i/n>',
      'send only the i-th of n parts of the input (every n-th record from the i-th), as one machine of n; needs --batch-id, the same on every machine',
      (text) => parseShard(text, '--shard'),
    )
    .option(
      '--again',
      'import an input that was imported into this service before, as new pets (by default it is refused)',
    )
    .addOption(dryRunOption(DRY_RUN.requests))
    .option(
      '--journal <file>',
      'where to journal the run (default: the journals folder, see journal list)',
      pathFlag('--journal'),
    )
    .addOption(
      new Option(
        '--resume <journal>',
        'complete an interrupted run from its journal: its path, or its batch id',
      )
        .argParser(pathFlag('--resume'))
        .conflicts(['journal', 'batchId']),
    )
    .option('--retry-failed', 'with --resume: send again the records the service rejected')
    .option('--retry-unknown', 'send again, with the same key, records of unknown outcome')
    .option('--print-all', 'with --resume: also print the pets earlier runs printed')
    .option(
      '--key-window <duration>',
      'how long the service keeps an Idempotency-Key (env PETSTORE_KEY_WINDOW; default 24h): a resume refuses to send again keys first sent longer ago, less 1h',
      (text) => parseKeyWindow(text, '--key-window'),
    )
    .option(
      '--ignore-key-window',
      'with --retry-unknown: send again keys past the window all the same (each may be created twice)',
    )
    .addHelpText(
      'after',
      helpProse(`
Examples:
  $ petstore pets import pets.csv > created.ndjson
  $ petstore pets import pets.ndjson --concurrency 8 --dry-run
  $ petstore pets import --template csv > pets.csv
  $ petstore --profile staging pets list --all -o csv > staging.csv
  $ petstore pets import staging.csv
  $ petstore pets import --resume import-1234 --retry-unknown >> created.ndjson

Every record is checked before anything is sent: one invalid record stops the file, each
listed with its line, column and reason, unless --skip-invalid sends the valid ones (and
--rejects writes the others to fix and import again). Column names match whatever their
letter case, spaces, _ and -; a status in another letter case is sent as spelled. A listing reads back in every format
pets list -o writes data in (json, ndjson, csv, tsv): an id field or column is ignored, with
one notice, and those records are created as new pets (the service gives each its own id).
In CSV and TSV an empty status cell is a pet without a status. Each created pet is written to
stdout (one JSON line) as soon as the service confirms it, so an interrupted run still leaves
a record of what it created. The run's journal (named on stderr) lets --resume complete it
without creating any record twice; it prints only the pets earlier runs did not, so the
outputs of all runs together hold one line per record (--print-all prints every one).
An input may hold any number of records: it is read as it streams, twice (to check, then to
send; standard input is copied to a private scratch file for that), and memory stays flat.
The same input (by content) imported again into the same service as a new batch is refused,
naming the earlier batch: --again imports it again on purpose.

Each record's Idempotency-Key stands for one attempt to create that one record: it comes from
the run's batch, the input's file name and the record's position, never from its content, so
two records alike are two pets. A new run is a new batch; --resume continues its journal's.
To re-run a CI job safely where its journal is gone, name the batch: the same --batch-id and
input send the same keys, and a service that honours them creates nothing twice (the sandbox
does), e.g. PETSTORE_BATCH_ID="pets-$CI_PIPELINE_ID" petstore pets import pets.ndjson
Several machines share one input by --shard I/N with the same --batch-id: each sends its
part, and a part sent twice (two machines, or one again after a crash) is answered from the
service's key store, never created twice (docs/bulk.md).`),
    );
}

export type PetsImportFlags = FlagsOf<ReturnType<typeof declarePetsImport>>;

/** A batch from a file (a new run, or one resumed from its journal), or a template. */
export type PetsImportOptions = PetsImportFileOptions | { template: InputFormat };

function toFlag(key: string): string {
  return `--${key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;
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

/** The environment variable's value, parsed; an empty one is unset. */
function fromEnv<T>(env: Env, variable: string, parse: (text: string, source: string) => T) {
  const value = env[variable];
  return value === undefined || value === '' ? undefined : parse(value, variable);
}

/** `--shard I/N`: 1 <= I <= N <= 10,000. */
function parseShard(text: string, source: string): Shard {
  const match = /^(\d{1,5})\/(\d{1,5})$/.exec(text.trim());
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (match === null || index < 1 || count < 1 || index > count || count > 10_000) {
    throw new UsageError(
      `${source} must be I/N, a part I of N parts (1 <= I <= N <= 10000), such as 2/4 (got ${JSON.stringify(text)})`,
      { hint: 'Give each of N machines its own part, 1/N to N/N, with the same --batch-id.' },
    );
  }
  return { index, count };
}

/** The file and parsed flags (and the variables that stand in for them) as a batch's options. */
export function toPetsImportOptions(
  file: string | undefined,
  flags: PetsImportFlags,
  env: Env = {},
): PetsImportOptions {
  if (flags.template !== undefined) {
    const others = Object.keys(flags).filter(
      (key) => key !== 'template' && flags[key as keyof PetsImportFlags] !== undefined,
    );
    if (file !== undefined) others.unshift('FILE');
    if (others.length > 0) {
      throw new UsageError(
        `--template prints a template and takes no file or other flag (got ${others.map((key) => (key === 'FILE' ? key : toFlag(key))).join(', ')})`,
        { hint: `Run: petstore pets import --template ${flags.template}` },
      );
    }
    return { template: flags.template };
  }
  if (file === undefined && flags.resume === undefined) {
    throw new UsageError('pets import needs a FILE to read (- for standard input)', {
      hint: 'Example: petstore pets import pets.csv (petstore pets import --template csv prints the start of one; --resume BATCH completes a run)',
    });
  }
  if (flags.rejects !== undefined && flags.skipInvalid !== true) {
    throw new UsageError('--rejects goes with --skip-invalid', {
      hint: `Run: petstore pets import ${file ?? 'FILE'} --skip-invalid --rejects ${flags.rejects}`,
    });
  }
  const batchId = flags.batchId ?? fromEnv(env, 'PETSTORE_BATCH_ID', parseBatchId);
  if (flags.shard !== undefined && batchId === undefined && flags.resume === undefined) {
    throw new UsageError(
      '--shard needs --batch-id (or PETSTORE_BATCH_ID): the same on every machine',
      {
        hint: `Name the job, e.g. petstore pets import ${file ?? 'FILE'} --shard ${flags.shard.index}/${flags.shard.count} --batch-id import-2026-12-07`,
      },
    );
  }
  const resumeOnly = (['retryFailed', 'printAll'] as const).filter((key) => flags[key]);
  if (resumeOnly.length > 0 && flags.resume === undefined) {
    throw new UsageError(
      `${resumeOnly.map(toFlag).join(' and ')} go${resumeOnly.length === 1 ? 'es' : ''} with --resume JOURNAL`,
    );
  }
  return {
    file,
    inputFormat: flags.inputFormat,
    resume: flags.resume,
    journal: flags.journal,
    concurrency: flags.concurrency ?? BULK_CONCURRENCY.default,
    failFast: flags.failFast === true,
    dryRun: flags.dryRun === true,
    retryFailed: flags.retryFailed === true,
    retryUnknown: flags.retryUnknown === true,
    printAll: flags.printAll === true,
    skipInvalid: flags.skipInvalid === true,
    rejects: flags.rejects,
    batchId,
    shard: flags.shard,
    again: flags.again === true,
    keyWindow: {
      windowMs:
        flags.keyWindow ??
        fromEnv(env, 'PETSTORE_KEY_WINDOW', parseKeyWindow) ??
        IDEMPOTENCY_KEY_WINDOW.defaultMs,
      marginMs: IDEMPOTENCY_KEY_WINDOW.marginMs,
      ignore: flags.ignoreKeyWindow === true,
    },
  };
}
