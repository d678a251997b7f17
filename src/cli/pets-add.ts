import type { Command } from 'commander';
import { parseInt64 } from '../api/int64.js';
import type { NewPet } from '../api/types.js';
import { UsageError } from '../errors.js';
import { parseStatus } from './parse-args.js';
import { parsePetsFile } from './parse-pets-file.js';
import { readInputFile } from './read-input.js';
import type { RunVerb } from './program.js';

interface RawFlags {
  name?: string;
  categoryId?: string;
  status?: string;
  file?: string;
  concurrency?: string;
  failFast?: boolean;
}

const MAX_CONCURRENCY = 16;
const DEFAULT_CONCURRENCY = 4;
const BULK_MAX_BYTES = 64 * 1024 * 1024;

function parseConcurrency(text: string | undefined): number {
  if (text === undefined) return DEFAULT_CONCURRENCY;
  if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > MAX_CONCURRENCY) {
    throw new UsageError(
      `--concurrency must be a whole number from 1 to ${MAX_CONCURRENCY}, got "${text}"`,
    );
  }
  return Number(text);
}

function checkBulkFlags(flags: RawFlags): void {
  if (flags.file === undefined) {
    if (flags.concurrency !== undefined || flags.failFast) {
      throw new UsageError('--concurrency and --fail-fast go with --file');
    }
    return;
  }
  if (flags.name !== undefined || flags.categoryId !== undefined || flags.status !== undefined) {
    throw new UsageError(
      'give one pet with --name/--category-id/--status, or many with --file, not both',
    );
  }
}

export function toNewPet(flags: RawFlags): NewPet {
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
      `with --file: requests at once, 1 to ${MAX_CONCURRENCY} (default ${DEFAULT_CONCURRENCY})`,
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
    .action((flags: RawFlags, command: Command) =>
      runVerb(command, async (ctx) => {
        checkBulkFlags(flags);
        if (flags.file !== undefined) {
          const concurrency = parseConcurrency(flags.concurrency);
          const source = flags.file === '-' ? 'standard input' : flags.file;
          const text = await readInputFile(flags.file, ctx.io, BULK_MAX_BYTES);
          const pets = parsePetsFile(text, source);
          const { runPetsAddBulk } = await import('../commands/pets-add-bulk.js');
          await runPetsAddBulk(ctx, { pets, concurrency, failFast: flags.failFast === true });
          return;
        }
        const pet = toNewPet(flags);
        const { runPetsAdd } = await import('../commands/pets-add.js');
        await runPetsAdd(ctx, pet);
      }),
    );
}
