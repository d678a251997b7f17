import { DRY_RUN, dryRunOption } from '../../cmdutil/options.js';
import type { Command } from '@commander-js/extra-typings';
import { changeConfig } from '../../cmdutil/config-change.js';
import type { RunVerb } from '../../cmdutil/run-verb.js';
import { noSuchProfile, profileExists } from '../../config/profiles.js';
import type { RunOutput, RunServices } from '../../context/context.js';

export interface ProfileUseOptions {
  name: string;
  dryRun: boolean;
}

export async function runProfileUse(
  ctx: RunOutput & RunServices,
  options: ProfileUseOptions,
): Promise<void> {
  const changed = await changeConfig(ctx, options.dryRun, (data) => {
    if (!profileExists(data, options.name)) throw noSuchProfile(options.name, data);
    data.activeProfile = options.name;
  });
  if (changed) ctx.notice(`Active profile: ${options.name}.`);
}

export function registerProfileUse(profile: Command, runVerb: RunVerb): void {
  profile
    .command('use')
    .description('Make a profile the active one')
    .argument('<NAME>', 'profile name')
    .addOption(dryRunOption(DRY_RUN.config))
    .addHelpText('after', '\nExample:\n  $ petstore profile use staging')
    .action((name, flags, command) =>
      runVerb(command, () => ({ name, dryRun: flags.dryRun === true }), runProfileUse),
    );
}
