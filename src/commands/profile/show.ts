import type { Command } from '@commander-js/extra-typings';
import type { RunVerb } from '../../cmdutil/run-verb.js';
import { noSuchProfile, profileExists, selectProfile } from '../../config/profiles.js';
import type { RunOutput, RunServices } from '../../context/context.js';
import { describeProfile, PROFILE_COLUMNS } from '../../cmdutil/profile-view.js';

export interface ProfileShowOptions {
  /** Default: the profile in use. */
  name: string | undefined;
}

export async function runProfileShow(
  ctx: RunOutput & RunServices,
  options: ProfileShowOptions,
): Promise<void> {
  const data = await (await ctx.config()).read();
  const chosen = options.name ?? selectProfile(ctx.settings.profile, data).name;
  if (!profileExists(data, chosen)) throw noSuchProfile(chosen, data);
  const view = describeProfile(chosen, data, ctx.env);
  await ctx.render(view, PROFILE_COLUMNS);
  if (view.overriddenStoredKey) {
    ctx.notice(`PETSTORE_API_KEY overrides the stored key ${view.overriddenStoredKey}.`);
  }
}

export function registerProfileShow(profile: Command, runVerb: RunVerb): void {
  profile
    .command('show')
    .description('Show a profile (default: the one in use): URLs, masked key, key source')
    .argument('[NAME]', 'profile name')
    .addHelpText('after', '\nExample:\n  $ petstore profile show staging')
    .action((name, _flags, command) => runVerb(command, () => ({ name }), runProfileShow));
}
