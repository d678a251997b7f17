import { fieldsOption } from '../../cmdutil/options.js';
import type { Command } from '@commander-js/extra-typings';
import { helpProse } from '../../cmdutil/help-text.js';
import type { FlagsOf, RunVerb } from '../../cmdutil/run-verb.js';
import type { RunOutput, RunServices } from '../../context/context.js';
import { GET_PET_REMOVAL_DATE } from '../../core/interface.js';
import type { Int64 } from '../../core/int64.js';
import { int64Flag } from '../../cmdutil/flags.js';
import { commandLineHint } from '../../output/wording.js';
import { GET_PET_DEPRECATION, getPet } from '../../operations/pets/get.js';
import { PET_COLUMNS, PET_FIELDS } from './columns.js';

/** `pets get`'s argument and flags, declared once. */
function declarePetsGet(pets: Command) {
  return pets
    .command('get')
    .description(
      `Show one animal (GET /pets/{petId}, deprecated: removed on ${GET_PET_REMOVAL_DATE})`,
    )
    .argument('<PET_ID>', 'the int64 identifier of the animal', int64Flag('PET_ID'))
    .addOption(fieldsOption(PET_FIELDS))
    .addHelpText(
      'after',
      helpProse(`
The service removes this endpoint on ${GET_PET_REMOVAL_DATE}; "petstore pets list --status" replaces it.

Examples:
  $ petstore pets get 42
  $ petstore pets get 9007199254740993 --json`),
    );
}

/** The pet's id (PET_ID), and the flags. */
export type PetsGetOptions = FlagsOf<ReturnType<typeof declarePetsGet>> & { id: Int64 };

export async function runPetsGet(
  ctx: RunOutput & RunServices,
  options: PetsGetOptions,
): Promise<void> {
  ctx.warnDeprecated(commandLineHint(GET_PET_DEPRECATION));
  const pet = await getPet({ client: await ctx.client() }, options.id);
  await ctx.render(pet, PET_COLUMNS, { fields: options.fields });
}

export function registerPetsGet(pets: Command, runVerb: RunVerb): void {
  const get = declarePetsGet(pets);
  get.action((id, flags) => runVerb(get, () => ({ id, ...flags }), runPetsGet));
}
