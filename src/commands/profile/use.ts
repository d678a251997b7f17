import type { Command } from 'commander';
import type { RunVerb } from '../../cmdutil/run-verb.js';
import { profileExists } from '../../config/profiles.js';
import type { Context } from '../../context/context.js';
import { noSuchProfile } from './view.js';

export interface ProfileUseOptions {
  name: string;
}

export async function runProfileUse(ctx: Context, options: ProfileUseOptions): Promise<void> {
  const store = await ctx.config();
  await store.update((data) => {
    if (!profileExists(data, options.name)) throw noSuchProfile(options.name);
    data.activeProfile = options.name;
  });
  ctx.notice(`Active profile: ${options.name}.`);
}

export function registerProfileUse(profile: Command, runVerb: RunVerb): void {
  profile
    .command('use')
    .description('Make a profile the active one')
    .argument('<NAME>', 'profile name')
    .addHelpText('after', '\nExample:\n  $ petstore profile use staging')
    .action((name: string, _flags: unknown, command: Command) =>
      runVerb(command, () => ({ name }), runProfileUse),
    );
}
