import type { Command } from 'commander';
import { parseInt64 } from '../api/int64.js';
import type { NewPet } from '../api/types.js';
import { UsageError } from '../errors.js';
import { parseStatus } from './parse-args.js';
import type { RunVerb } from './program.js';

interface RawFlags {
  name?: string;
  categoryId?: string;
  status?: string;
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
    .addHelpText(
      'after',
      `
Examples:
  $ petstore pets add --name Rex --category-id 1
  $ petstore pets add --name Tom --category-id 2 --status pending --json`,
    )
    .action((flags: RawFlags, command: Command) =>
      runVerb(command, async (ctx) => {
        const pet = toNewPet(flags);
        const { runPetsAdd } = await import('../commands/pets-add.js');
        await runPetsAdd(ctx, pet);
      }),
    );
}
