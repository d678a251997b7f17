import type { Command } from 'commander';
import type { PetsListOptions } from '../commands/pets-list.js';
import type { RunVerb } from './program.js';
import { parseLimit, parseStatus } from './parse-args.js';

interface RawFlags {
  status?: string;
  limit?: string;
}

export function toPetsListOptions(flags: RawFlags): PetsListOptions {
  return { status: parseStatus(flags.status), limit: parseLimit(flags.limit) };
}

export function registerPetsList(pets: Command, runVerb: RunVerb): void {
  pets
    .command('list')
    .description('List animals (GET /pets)')
    .option('--status <status>', 'only animals with this status: available, pending or sold')
    .option('--limit <n>', 'at most N animals, 1 to 100 (service default 20)')
    .addHelpText(
      'after',
      `
Examples:
  $ petstore pets list
  $ petstore pets list --status available --limit 50
  $ petstore pets list --json | jq '.[].name'`,
    )
    .action((flags: RawFlags, command: Command) =>
      runVerb(command, async (ctx) => {
        const options = toPetsListOptions(flags);
        const { runPetsList } = await import('../commands/pets-list.js');
        await runPetsList(ctx, options);
      }),
    );
}
