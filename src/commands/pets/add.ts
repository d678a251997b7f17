import type { Command } from 'commander';
import { parseConcurrency, parseStatus } from '../../cmdutil/flags.js';
import { UNKNOWN_PET_OUTCOME } from '../../core/unknown-outcome.js';
import { endInterrupted, finishWrite } from '../../cmdutil/finish-write.js';
import { readInputFile } from '../../cmdutil/read-input.js';
import type { RunVerb } from '../../cmdutil/run-verb.js';
import type { Context } from '../../context/context.js';
import { BULK_CONCURRENCY, BULK_MAX_BYTES } from '../../core/contract.js';
import { UsageError } from '../../core/errors.js';
import { parseInt64 } from '../../core/int64.js';
import { sanitizeLine } from '../../core/sanitize.js';
import type { NewPet } from '../../core/types.js';
import { runPetsAddBulk } from './add-bulk.js';
import { PET_COLUMNS } from './columns.js';
import { parsePetsFile } from './pets-file.js';

interface Flags {
  name?: string;
  categoryId?: string;
  status?: string;
  file?: string;
  concurrency?: string;
  failFast?: boolean;
}

/** One pet from flags, or many from a file. */
export type PetsAddOptions =
  { pet: NewPet } | { file: string; concurrency: number; failFast: boolean };

function toNewPet(flags: Flags): NewPet {
  if (flags.name === undefined || flags.categoryId === undefined) {
    throw new UsageError('pets add needs --name and --category-id', {
      hint: 'Example: petstore pets add --name Rex --category-id 1',
    });
  }
  if (flags.name.trim() === '') throw new UsageError('--name must not be empty');
  const pet: NewPet = {
    name: flags.name,
    categoryId: parseInt64(flags.categoryId, '--category-id'),
  };
  const status = parseStatus(flags.status);
  if (status !== undefined) pet.status = status;
  return pet;
}

export function toPetsAddOptions(flags: Flags): PetsAddOptions {
  if (flags.file === undefined) {
    if (flags.concurrency !== undefined || flags.failFast) {
      throw new UsageError('--concurrency and --fail-fast go with --file');
    }
    return { pet: toNewPet(flags) };
  }
  if (flags.name !== undefined || flags.categoryId !== undefined || flags.status !== undefined) {
    throw new UsageError(
      'give one pet with --name/--category-id/--status, or many with --file, not both',
    );
  }
  return {
    file: flags.file,
    concurrency: parseConcurrency(flags.concurrency),
    failFast: flags.failFast === true,
  };
}

export async function runPetsAdd(ctx: Context, options: PetsAddOptions): Promise<void> {
  if ('file' in options) {
    const source = options.file === '-' ? 'standard input' : options.file;
    const text = await readInputFile(options.file, ctx.io, BULK_MAX_BYTES);
    await runPetsAddBulk(ctx, {
      pets: parsePetsFile(text, source),
      concurrency: options.concurrency,
      failFast: options.failFast,
    });
    return;
  }
  const client = await ctx.client();
  const { result: created, interrupted } = await finishWrite(
    ctx,
    () => client.createPet(options.pet),
    UNKNOWN_PET_OUTCOME,
  );
  await ctx.render(created, PET_COLUMNS);
  const added = `pet ${created.id.toString()} (${sanitizeLine(created.name)})`;
  if (interrupted) endInterrupted(interrupted, `${added} was added`);
  if (ctx.io.stderrIsTTY) {
    const target = await ctx.target();
    ctx.notice(`Added ${added} to ${target.label}.`);
  }
}

export function registerPetsAdd(pets: Command, runVerb: RunVerb): void {
  pets
    .command('add')
    .description('Add an animal (POST /pets)')
    .option('--name <name>', "the animal's name")
    .option('--category-id <int64>', 'identifier of its category')
    .option('--status <status>', 'available, pending or sold')
    .option('--file <path>', 'add many: a JSON array or NDJSON of NewPet records, - for stdin')
    .option(
      '--concurrency <n>',
      `with --file: requests at once, ${BULK_CONCURRENCY.min} to ${BULK_CONCURRENCY.max} (default ${BULK_CONCURRENCY.default})`,
    )
    .option('--fail-fast', 'with --file: start no more requests after the first failure')
    .addHelpText(
      'after',
      `
Examples:
  $ petstore pets add --name Rex --category-id 1
  $ petstore pets add --name Tom --category-id 2 --status pending --json
  $ petstore pets add --file pets.ndjson --concurrency 8 > created.ndjson

With --file every record is checked before anything is sent. Each created pet is written to
stdout (one JSON line) as soon as the service confirms it, so an interrupted run still leaves
a record of what it created.`,
    )
    .action((flags: Flags, command: Command) =>
      runVerb(command, () => toPetsAddOptions(flags), runPetsAdd),
    );
}
