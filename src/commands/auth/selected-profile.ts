import { selectProfile } from '../../config/profiles.js';
import type { RunOutput, RunServices } from '../../context/context.js';

/** The profile an auth verb acts on: --profile, PETSTORE_PROFILE, the active one, or sandbox. */
export async function selectedProfileName(ctx: RunOutput & RunServices): Promise<string> {
  const data = await (await ctx.config()).read();
  return selectProfile(ctx.settings.profile, data).name;
}
