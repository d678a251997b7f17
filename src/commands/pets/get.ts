import type { Command } from 'commander';
import { helpProse } from '../../cmdutil/help-text.js';
import type { RunVerb } from '../../cmdutil/run-verb.js';
import type { RunOutput, RunServices } from '../../context/context.js';
import { GET_PET_REMOVAL_DATE } from '../../core/interface.js';
import { parseInt64, type Int64 } from '../../core/int64.js';
import { parseFields } from '../../cmdutil/fields.js';
import { PET_COLUMNS, PET_FIELDS } from './columns.js';

export interface PetsGetOptions {
  id: Int64;
  fields?: string[] | undefined;
}

export async function runPetsGet(
  ctx: RunOutput & RunServices,
  options: PetsGetOptions,
): Promise<void> {
  ctx.warnDeprecated(
    `GET /pets/{petId} is deprecated and will be removed on ${GET_PET_REMOVAL_DATE}; ` +
      'use "petstore pets list --status STATUS" instead.',
  );
  const client = await ctx.client();
  const pet = await client.getPet(options.id);
  await ctx.render(pet, PET_COLUMNS, { fields: options.fields });
}

export function registerPetsGet(pets: Command, runVerb: RunVerb): void {
  pets
    .command('get')
    .description(
      `Show one animal (GET /pets/{petId}, deprecated: removed on ${GET_PET_REMOVAL_DATE})`,
    )
    .argument('<PET_ID>', 'the int64 identifier of the animal')
    .option('--fields <list>', `only these fields, in this order: ${PET_FIELDS.join(',')}`)
    .addHelpText(
      'after',
      helpProse(`
The service removes this endpoint on ${GET_PET_REMOVAL_DATE}; "petstore pets list --status" replaces it.

Examples:
  $ petstore pets get 42
  $ petstore pets get 9007199254740993 --json`),
    )
    .action((petId: string, flags: { fields?: string }, command: Command) =>
      runVerb(
        command,
        () => ({ id: parseInt64(petId, 'PET_ID'), fields: parseFields(flags.fields, PET_FIELDS) }),
        runPetsGet,
      ),
    );
}
