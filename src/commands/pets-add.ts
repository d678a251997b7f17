import type { NewPet } from '../api/types.js';
import type { Context } from '../context.js';
import { PET_COLUMNS } from './pet-columns.js';

export async function runPetsAdd(ctx: Context, pet: NewPet): Promise<void> {
  const client = await ctx.client();
  const created = await client.createPet(pet);
  await ctx.render(created, PET_COLUMNS);
  if (ctx.io.stderrIsTTY) {
    const target = await ctx.target();
    ctx.notice(
      `Added pet ${created.id.toString()} (${created.name}) in profile ${target.profile}.`,
    );
  }
}
