import type { PetStatus } from '../api/types.js';
import type { Context } from '../context.js';
import { PET_COLUMNS } from './pet-columns.js';

export interface PetsListOptions {
  status?: PetStatus | undefined;
  limit?: number | undefined;
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
