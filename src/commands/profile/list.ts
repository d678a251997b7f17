import type { Command } from '@commander-js/extra-typings';
import type { RunVerb } from '../../cmdutil/run-verb.js';
import { profileNames } from '../../config/profiles.js';
import type { RunOutput, RunServices } from '../../context/context.js';
import { describeProfile, PROFILE_COLUMNS } from '../../cmdutil/profile-view.js';

export async function runProfileList(ctx: RunOutput & RunServices): Promise<void> {
  const data = await (await ctx.config()).read();
  const views = profileNames(data).map((name) => describeProfile(name, data, ctx.env));
  await ctx.render(views, PROFILE_COLUMNS);
}

export function registerProfileList(profile: Command, runVerb: RunVerb): void {
  profile
    .command('list')
    .alias('ls')
    .description('List profiles; * marks the active one')
    .addHelpText('after', '\nExample:\n  $ petstore profile list --json')
    .action((_flags: unknown, command: Command) => runVerb(command, () => ({}), runProfileList));
}
