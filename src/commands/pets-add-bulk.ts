import { stringifyJson } from '../api/json.js';
import type { NewPet, Pet } from '../api/types.js';
import { exitCodeFor, reportError } from '../report-error.js';
import type { Context } from '../context.js';
import { BulkFailedError, NetworkError, PetstoreError } from '../errors.js';
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

  const addOne = async (index: number) => {
    const pet = options.pets[index]!;
    try {
      const result = await client.createPet(pet);
      created.push(result);
      if (table) ctx.notice(`created ${result.id.toString()} ${sanitizeLine(result.name)}`);
      else ctx.io.stdout.write(stringifyJson(result) + '\n');
    } catch (error) {
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

function reportFailure(ctx: Context, index: number, pet: NewPet, error: unknown): void {
  const label = `record ${index + 1} (${snippet(pet.name, 40)})`;
  const uncertain =
    error instanceof NetworkError
      ? ' It may or may not have been created: check with petstore pets list before retrying it.'
      : '';
  if (ctx.settings.output === 'table') {
    const message = error instanceof PetstoreError ? error.message : String(error);
    const status = error instanceof PetstoreError && error.status ? ` (HTTP ${error.status})` : '';
    ctx.io.stderr.write(`petstore: ${label}: ${sanitizeLine(message)}${status}.${uncertain}\n`);
    return;
  }
  // JSON mode: the contract's error object, with the record it concerns.
  let line = '';
  reportError(error, { json: true, verbose: false, write: (text) => (line += text) });
  const body = JSON.parse(line) as Record<string, unknown>;
  ctx.io.stderr.write(
    JSON.stringify({
      ...body,
      record: index + 1,
      ...(uncertain ? { hint: uncertain.trim() } : {}),
    }) + '\n',
  );
}
