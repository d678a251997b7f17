import type { Command } from 'commander';
import { parseLimit, parseStatus } from '../../cmdutil/flags.js';
import type { RunVerb } from '../../cmdutil/run-verb.js';
import type { Context } from '../../context/context.js';
import { LIST_LIMIT } from '../../core/contract.js';
import type { PetStatus } from '../../core/types.js';
import { PET_COLUMNS } from './columns.js';

export interface PetsListOptions {
  status?: PetStatus | undefined;
  limit?: number | undefined;
}

interface Flags {
  status?: string;
  limit?: string;
}

export function toPetsListOptions(flags: Flags): PetsListOptions {
  return { status: parseStatus(flags.status), limit: parseLimit(flags.limit) };
}

export async function runPetsList(ctx: Context, options: PetsListOptions): Promise<void> {
  const client = await ctx.client();
  const pets = await client.listPets({ status: options.status, limit: options.limit });
  if (pets.length === 0 && ctx.settings.output === 'table') {
    ctx.notice('No animals match.');
    return;
  }
  await ctx.render(pets, PET_COLUMNS);
}

export function registerPetsList(pets: Command, runVerb: RunVerb): void {
  pets
    .command('list')
    .description('List animals (GET /pets)')
    .option('--status <status>', 'only animals with this status: available, pending or sold')
    .option(
      '--limit <n>',
      `at most N animals, ${LIST_LIMIT.min} to ${LIST_LIMIT.max} (service default 20)`,
    )
    .addHelpText(
      'after',
      `
Examples:
  $ petstore pets list
  $ petstore pets list --status available --limit 50
  $ petstore pets list --json | jq '.[].name'`,
    )
    .action((flags: Flags, command: Command) =>
      runVerb(command, () => toPetsListOptions(flags), runPetsList),
    );
}
