import { DRY_RUN, dryRunOption } from '../../cmdutil/options.js';
import type { Command } from '@commander-js/extra-typings';
import { changeConfig } from '../../cmdutil/config-change.js';
import type { RunVerb } from '../../cmdutil/run-verb.js';
import { BUILTIN_PROFILES, maskKey, storedProfile } from '../../config/profiles.js';
import { forgetKeyringEntry } from '../../cmdutil/forget-keyring-entry.js';
import type { RunOutput, RunServices } from '../../context/context.js';
import { selectedProfileName } from './selected-profile.js';

/**
 * Removes the profile's key (with --all, every profile's) from the config file and from the
 * OS keyring, wherever it is.
 */
export async function runAuthLogout(
  ctx: RunOutput & RunServices,
  options: { dryRun: boolean; all?: boolean },
): Promise<void> {
  const before = await (await ctx.config()).read();
  // --all: the built-in profiles too, a key of theirs may be in the keyring though the file
  // names none. One change of the config file for them all (one dry-run document).
  const profiles =
    options.all === true
      ? [...new Set([...BUILTIN_PROFILES, ...Object.keys(before.profiles)])]
      : [await selectedProfileName(ctx)];
  const removed = new Map<string, string>();
  const changed = await changeConfig(ctx, options.dryRun, (data) => {
    for (const profile of profiles) {
      const record = data.profiles[profile];
      if (record === undefined) continue;
      if (record.apiKey !== undefined) removed.set(profile, maskKey(record.apiKey));
      delete record.apiKey;
      delete record.keyStore;
    }
  });
  if (!changed) return;
  for (const profile of profiles) {
    const inKeyring = storedProfile(before, profile).keyStore === 'keyring';
    // The keyring is cleared too when the file never named it: a key stored there by another
    // copy of petstore, or left behind, goes as well.
    const fromKeyring = await forgetKeyringEntry(ctx, profile, { quiet: !inKeyring });
    const inFile = removed.get(profile);
    const places = [inFile && `the config file (${inFile})`, fromKeyring && 'the OS keyring'];
    const where = places.filter(Boolean).join(' and ');
    ctx.notice(
      where
        ? `Removed the key of profile ${profile} from ${where}.`
        : `Profile ${profile} has no stored key; nothing removed.`,
    );
  }
}

export function registerAuthLogout(auth: Command, runVerb: RunVerb): void {
  auth
    .command('logout')
    .description('Remove the stored key of one profile (--all: of every profile)')
    .option('--all', 'remove the key of every profile, from the config file and the OS keyring')
    .addOption(dryRunOption(DRY_RUN.config))
    .addHelpText(
      'after',
      '\nExamples:\n  $ petstore auth logout --profile staging\n  $ petstore auth logout --all',
    )
    .action((flags, command) =>
      runVerb(
        command,
        () => ({ dryRun: flags.dryRun === true, ...(flags.all === true ? { all: true } : {}) }),
        runAuthLogout,
      ),
    );
}
