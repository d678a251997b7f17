import { selectProfile } from '../../config/profiles.js';
import type { Context } from '../../context/context.js';

/** The profile an auth verb acts on: --profile, PETSTORE_PROFILE, the active one, or sandbox. */
export async function selectedProfileName(ctx: Context): Promise<string> {
  const data = await (await ctx.config()).read();
  return selectProfile(ctx.settings.profile, data).name;
}
