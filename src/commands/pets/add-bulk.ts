import type { Context } from '../../context/context.js';
import {
  ApiError,
  BulkFailedError,
  ConfigError,
  MissingCredentialError,
  NetworkError,
  UsageError,
} from '../../core/errors.js';
import { stringifyJson } from '../../core/json.js';
import { sanitizeLine, snippet } from '../../core/sanitize.js';
import type { NewPet, Pet } from '../../core/types.js';
import { exitCodeFor, reportRecordError } from '../../output/report-error.js';
import { PET_COLUMNS } from './columns.js';

export interface BulkAddOptions {
  pets: NewPet[];
  concurrency: number;
  failFast: boolean;
}

const UNKNOWN_OUTCOME_HINT =
  'It may or may not have been created: check with petstore pets list before retrying it.';

/**
 * Adds many pets, `concurrency` at a time. Each created pet is written to stdout as soon as
 * the service confirms it (one JSON line, or a table at the end on a terminal with a line per
 * pet on stderr meanwhile), so an interrupted run still leaves a record of what it created.
 */
export async function runPetsAddBulk(ctx: Context, options: BulkAddOptions): Promise<void> {
  const client = await ctx.client();
  const target = await ctx.target();
  const table = ctx.settings.output === 'table';
  const created: Pet[] = [];
  const failures: { index: number; error: unknown }[] = [];
  let next = 0;
  let stop = false;
  /** A failure that is not about one record (no URL, no key): the run stops and reports it once. */
  let fatal: Error | undefined;

  const addOne = async (index: number) => {
    const pet = options.pets[index]!;
    try {
      const result = await client.createPet(pet);
      created.push(result);
      if (table) ctx.notice(`created ${result.id.toString()} ${sanitizeLine(result.name)}`);
      else ctx.io.stdout.write(stringifyJson(result) + '\n');
    } catch (error) {
      if (concernsWholeRun(error)) {
        stop = true;
        fatal ??= error as Error;
        return;
      }
      failures.push({ index, error });
      if (options.failFast) stop = true;
      reportRecordError(
        error instanceof NetworkError ? withUnknownOutcome(error) : error,
        { json: !table, write: (text) => ctx.io.stderr.write(text) },
        { position: index + 1, name: snippet(pet.name, 40) },
      );
    }
  };
  const worker = async () => {
    while (!stop && next < options.pets.length) await addOne(next++);
  };
  await Promise.all(
    Array.from({ length: Math.min(options.concurrency, options.pets.length) }, worker),
  );

  if (table && created.length > 0) await ctx.render(created, PET_COLUMNS);
  const summary = `added ${created.length} of ${options.pets.length} pets to profile ${target.profile}`;
  if (fatal !== undefined) {
    if (created.length > 0) ctx.notice(`Stopped: ${summary}.`);
    throw fatal;
  }
  if (failures.length === 0) {
    ctx.notice(`${summary[0]!.toUpperCase()}${summary.slice(1)}.`);
    return;
  }
  const skipped = options.pets.length - created.length - failures.length;
  const first = failures.reduce((a, b) => (a.index < b.index ? a : b));
  throw new BulkFailedError(
    `${summary}; ${failures.length} failed${skipped ? `, ${skipped} not attempted (--fail-fast)` : ''}`,
    exitCodeFor(first.error),
  );
}

/** Failures that every record would meet alike: bad settings, no key, a key refused. */
function concernsWholeRun(error: unknown): boolean {
  return (
    error instanceof UsageError ||
    error instanceof ConfigError ||
    error instanceof MissingCredentialError ||
    (error instanceof ApiError && (error.status === 401 || error.status === 403))
  );
}

/** A network failure after sending leaves the outcome unknown: say so with the error. */
function withUnknownOutcome(error: NetworkError): NetworkError {
  return new NetworkError(error.code, error.message, { hint: UNKNOWN_OUTCOME_HINT, cause: error });
}
