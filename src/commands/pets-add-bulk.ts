import { stringifyJson } from '../api/json.js';
import type { NewPet, Pet } from '../api/types.js';
import { errorFields, ExitCode, exitCodeFor } from '../report-error.js';
import type { Context } from '../context.js';
import { BulkFailedError, NetworkError } from '../errors.js';
import { sanitizeLine, snippet } from '../output/sanitize.js';
import { PET_COLUMNS } from './pet-columns.js';

export interface BulkAddOptions {
  pets: NewPet[];
  concurrency: number;
  failFast: boolean;
}

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
        fatal ??= error instanceof Error ? error : new Error(String(error));
        return;
      }
      failures.push({ index, error });
      if (options.failFast) stop = true;
      reportFailure(ctx, index, pet, error);
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

/** No URL, or a key the service refuses: every record would fail the same way. */
function concernsWholeRun(error: unknown): boolean {
  const code = exitCodeFor(error);
  return code === ExitCode.usage || code === ExitCode.auth;
}

function reportFailure(ctx: Context, index: number, pet: NewPet, error: unknown): void {
  const fields = errorFields(error);
  if (error instanceof NetworkError) {
    fields.hint =
      'It may or may not have been created: check with petstore pets list before retrying it.';
  }
  if (ctx.settings.output !== 'table') {
    ctx.io.stderr.write(JSON.stringify({ ...fields, record: index + 1 }) + '\n');
    return;
  }
  const status = fields.status ? ` (HTTP ${fields.status})` : '';
  const hint = error instanceof NetworkError ? ` ${fields.hint ?? ''}` : '';
  ctx.io.stderr.write(
    `petstore: record ${index + 1} (${snippet(pet.name, 40)}): ${fields.message}${status}.${hint}\n`,
  );
}
