import type { Int64 } from '../api/int64.js';
import type { Context } from '../context.js';
import { PET_COLUMNS } from './pet-columns.js';

export const GET_PET_REMOVAL_DATE = '2030-12-05';

export async function runPetsGet(ctx: Context, id: Int64): Promise<void> {
  ctx.warnDeprecated(
    `GET /pets/{petId} is deprecated and will be removed on ${GET_PET_REMOVAL_DATE}; ` +
      'use "petstore pets list --status STATUS" instead.',
  );
  const client = await ctx.client();
  const pet = await client.getPet(id);
  await ctx.render(pet, PET_COLUMNS);
}
