import { DRY_RUN, dryRunOption } from '../../cmdutil/options.js';
import type { Command } from '@commander-js/extra-typings';
import { changeConfig } from '../../cmdutil/config-change.js';
import type { RunVerb } from '../../cmdutil/run-verb.js';
import { maskKey, storedProfile } from '../../config/profiles.js';
import { forgetKeyringEntry } from '../../cmdutil/forget-keyring-entry.js';
import type { RunOutput, RunServices } from '../../context/context.js';
import { selectedProfileName } from './selected-profile.js';

/** Removes the profile's key from the config file and from the OS keyring, wherever it is. */
export async function runAuthLogout(
  ctx: RunOutput & RunServices,
  options: { dryRun: boolean },
): Promise<void> {
  const profile = await selectedProfileName(ctx);
  const inKeyring =
    storedProfile(await (await ctx.config()).read(), profile).keyStore === 'keyring';
  let removed: string | undefined;
  const changed = await changeConfig(ctx, options.dryRun, (data) => {
    const record = data.profiles[profile];
    if (record === undefined) return;
    if (record.apiKey !== undefined) removed = maskKey(record.apiKey);
    delete record.apiKey;
    delete record.keyStore;
  });
  if (!changed) return;
  // The keyring is cleared too when the file never named it: a key stored there by another
  // copy of petstore, or left behind, goes as well.
  const fromKeyring = await forgetKeyringEntry(ctx, profile, { quiet: !inKeyring });
  const places = [removed && `the config file (${removed})`, fromKeyring && 'the OS keyring'];
  const where = places.filter(Boolean).join(' and ');
  ctx.notice(
    where
      ? `Removed the key of profile ${profile} from ${where}.`
      : `Profile ${profile} has no stored key; nothing removed.`,
  );
}

export function registerAuthLogout(auth: Command, runVerb: RunVerb): void {
  auth
    .command('logout')
    .description('Remove the stored key of one profile')
    .addOption(dryRunOption(DRY_RUN.config))
    .addHelpText('after', '\nExample:\n  $ petstore auth logout --profile staging')
    .action((flags, command) =>
      runVerb(command, () => ({ dryRun: flags.dryRun === true }), runAuthLogout),
    );
}
