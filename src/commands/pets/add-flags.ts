import { DRY_RUN, dryRunOption, idempotencyKeyOption } from '../../cmdutil/options.js';
import { Option, type Command } from '@commander-js/extra-typings';
import { int64Flag, nonEmptyFlag, statusFlag } from '../../cmdutil/flags.js';
import { helpProse } from '../../cmdutil/help-text.js';
import type { FlagsOf } from '../../cmdutil/run-verb.js';
import { UsageError } from '../../core/errors.js';
import { PET_STATUSES, type NewPet } from '../../core/interface.js';

/**
 * What `pets add` once took for many pets: given to it, each is refused with the command that
 * takes it now (`pets import`), not as an unknown option.
 */
const MOVED_TO_IMPORT = {
  file: (value: string) => `petstore pets import ${value}`,
  resume: (value: string) => `petstore pets import --resume ${value}`,
  template: (value: string) => `petstore pets import --template ${value}`,
} as const;

/**
 * `pets add`'s flags, each declared once (name, help, parser): their parsed types are what
 * toPetsAddOptions reads.
 */
export function declarePetsAdd(pets: Command) {
  return pets
    .command('add')
    .description('Add an animal (POST /pets); many from a file: pets import')
    .option('--name <name>', "the animal's name", nonEmptyFlag('--name'))
    .option('--category-id <int64>', 'identifier of its category', int64Flag('--category-id'))
    .option('--status <status>', PET_STATUSES.join(', '), statusFlag)
    .addOption(idempotencyKeyOption())
    .addOption(dryRunOption(DRY_RUN.request))
    .addOption(new Option('--file <path>').hideHelp())
    .addOption(new Option('--resume <journal>').hideHelp())
    .addOption(new Option('--template <format>').hideHelp())
    .addHelpText(
      'after',
      helpProse(`
Examples:
  $ petstore pets add --name Rex --category-id 1
  $ petstore pets add --name Tom --category-id 2 --status pending --json
  $ petstore pets add --name Rex --category-id 1 --dry-run
  $ petstore pets import pets.csv

At a terminal, what the flags leave out is asked for. To add many pets from a file (CSV, TSV,
JSON or NDJSON), each exactly once, use pets import.`),
    );
}

export type PetsAddFlags = FlagsOf<ReturnType<typeof declarePetsAdd>>;

/** One pet: what the flags gave, checked; what is missing is asked for, or refused. */
export interface PetsAddOptions {
  pet: PetDraft;
  idempotencyKey: string | undefined;
  dryRun: boolean;
}

/** What the flags gave of one pet, each value checked; what is missing is asked for, or refused. */
export type PetDraft = Partial<NewPet>;

/** The parsed flags as one pet's options. */
export function toPetsAddOptions(flags: PetsAddFlags): PetsAddOptions {
  for (const [flag, command] of Object.entries(MOVED_TO_IMPORT)) {
    const value = flags[flag as keyof typeof MOVED_TO_IMPORT];
    if (value === undefined) continue;
    throw new UsageError(`pets add adds one pet; --${flag} is for pets import`, {
      hint: `Run: ${command(value)}`,
    });
  }
  const pet: PetDraft = {};
  if (flags.name !== undefined) pet.name = flags.name;
  if (flags.categoryId !== undefined) pet.categoryId = flags.categoryId;
  if (flags.status !== undefined) pet.status = flags.status;
  return { pet, idempotencyKey: flags.idempotencyKey, dryRun: flags.dryRun === true };
}
