import { DRY_RUN, dryRunOption, yesOption } from '../../cmdutil/options.js';
import type { Command } from '@commander-js/extra-typings';
import { changeConfig } from '../../cmdutil/config-change.js';
import { confirmed } from '../../cmdutil/confirm.js';
import type { RunVerb } from '../../cmdutil/run-verb.js';
import {
  activeProfile,
  DEFAULT_PROFILE,
  isBuiltInProfile,
  noSuchProfile,
  profileExists,
} from '../../config/profiles.js';
import type { RunOutput, RunServices } from '../../context/context.js';
import { UsageError } from '../../core/errors.js';
import { forgetKeyringEntry } from '../../cmdutil/forget-keyring-entry.js';

export interface ProfileRemoveOptions {
  name: string;
  /** Remove without asking. */
  yes: boolean;
  dryRun: boolean;
}

export async function runProfileRemove(
  ctx: RunOutput & RunServices,
  options: ProfileRemoveOptions,
): Promise<void> {
  const { name, yes } = options;
  if (isBuiltInProfile(name)) {
    throw new UsageError(`"${name}" is built in and cannot be removed`, {
      hint: `To forget its key: petstore auth logout --profile ${name}`,
    });
  }
  const store = await ctx.config();
  const before = await store.read();
  if (!profileExists(before, name)) throw noSuchProfile(name, before);
  if (!yes && !options.dryRun) {
    const record = before.profiles[name];
    const hasKey = record?.apiKey !== undefined || record?.keyStore === 'keyring';
    const question = `Remove profile ${name}${hasKey ? ' and its stored API key' : ''}?`;
    const agreed = await confirmed(ctx, question, {
      message: `removing profile ${name} needs confirmation`,
      yesFlag: '--yes',
      undone: 'nothing was removed',
    });
    if (!agreed) {
      ctx.notice('Nothing removed.');
      return;
    }
  }
  const outcome = { wasActive: false };
  const changed = await changeConfig(ctx, options.dryRun, (data) => {
    if (!Object.hasOwn(data.profiles, name)) throw noSuchProfile(name, data);
    outcome.wasActive = activeProfile(data) === name;
    data.profiles = Object.fromEntries(
      Object.entries(data.profiles).filter(([profileName]) => profileName !== name),
    );
    if (outcome.wasActive) delete data.activeProfile;
  });
  if (!changed) return;
  // Its key goes with it, from the keyring too: nothing the profile named is left behind.
  if (before.profiles[name]?.keyStore === 'keyring') await forgetKeyringEntry(ctx, name);
  ctx.notice(`Removed profile ${name}.`);
  if (outcome.wasActive) ctx.notice(`The active profile is now ${DEFAULT_PROFILE}.`);
}

export function registerProfileRemove(profile: Command, runVerb: RunVerb): void {
  profile
    .command('remove')
    .description('Remove a profile of your own and its stored key')
    .argument('<NAME>', 'profile name')
    .addOption(yesOption())
    .addOption(dryRunOption(DRY_RUN.config))
    .addHelpText('after', '\nExample:\n  $ petstore profile remove qa --yes')
    .action((name, flags, command) =>
      runVerb(
        command,
        () => ({ name, yes: flags.yes === true, dryRun: flags.dryRun === true }),
        runProfileRemove,
      ),
    );
}
