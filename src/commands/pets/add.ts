import type { Command } from '@commander-js/extra-typings';
import { endInterrupted, finishWrite } from '../../cmdutil/finish-write.js';
import type { RunVerb } from '../../cmdutil/run-verb.js';
import type { RunOutput, RunServices, RunState } from '../../context/context.js';
import { sanitizeLine } from '../../core/sanitize.js';
import { replayedNotice, UNKNOWN_PET_OUTCOME } from '../../core/unknown-outcome.js';
import { addPet, previewAddPet } from '../../operations/pets/add.js';
import { writeKey } from '../../operations/write-key.js';
import { declarePetsAdd, toPetsAddOptions, type PetsAddOptions } from './add-flags.js';
import { completePet } from './add-prompts.js';
import { PET_COLUMNS } from './columns.js';

export { toPetsAddOptions, type PetDraft, type PetsAddOptions } from './add-flags.js';

/** `pets add`: one pet, from flags or asked for at a terminal (many: `pets import`). */
export async function runPetsAdd(
  ctx: RunOutput & RunServices & RunState,
  options: PetsAddOptions,
): Promise<void> {
  const pet = await completePet(ctx, options.pet);
  const client = () => ctx.client();
  const request = { pet, idempotencyKey: writeKey(options.idempotencyKey) };
  if (options.dryRun) {
    ctx.printRequest(await previewAddPet({ client }, request));
    return;
  }
  const { result, interrupted } = await finishWrite(
    ctx,
    () => addPet({ client }, request, { onReplayed: () => ctx.notice(replayedNotice('pet')) }),
    UNKNOWN_PET_OUTCOME,
    request.idempotencyKey,
  );
  await ctx.render(result.pet, PET_COLUMNS);
  const added = `pet ${result.pet.id.toString()} (${sanitizeLine(result.pet.name)})`;
  if (interrupted) endInterrupted(interrupted, `${added} was added`);
  // A replay was said as such: this run added nothing.
  if (ctx.io.stderrIsTTY && !result.replayed) {
    const target = await ctx.target();
    ctx.notice(`Added ${added} to ${target.label}.`);
  }
}

export function registerPetsAdd(pets: Command, runVerb: RunVerb): void {
  const add = declarePetsAdd(pets);
  add.action((flags) => runVerb(add, () => toPetsAddOptions(flags), runPetsAdd));
}
