import type { Command } from 'commander';
import { parseInt64 } from '../api/int64.js';
import type { RunVerb } from './program.js';

export function registerPetsGet(pets: Command, runVerb: RunVerb): void {
  pets
    .command('get')
    .description('Show one animal (GET /pets/{petId}, deprecated: removed on 2030-12-05)')
    .argument('<PET_ID>', 'the int64 identifier of the animal')
    .addHelpText(
      'after',
      `
The service removes this endpoint on 2030-12-05; "petstore pets list --status" replaces it.

Examples:
  $ petstore pets get 42
  $ petstore pets get 9007199254740993 --json`,
    )
    .action((petId: string, _flags: unknown, command: Command) =>
      runVerb(command, async (ctx) => {
        const id = parseInt64(petId, 'PET_ID');
        const { runPetsGet } = await import('../commands/pets-get.js');
        await runPetsGet(ctx, id);
      }),
    );
}
