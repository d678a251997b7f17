import { DRY_RUN, dryRunOption, yesOption } from '../../cmdutil/options.js';
import type { Command } from '@commander-js/extra-typings';
import { changeConfig } from '../../cmdutil/config-change.js';
import { helpProse } from '../../cmdutil/help-text.js';
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
    await resetBuiltIn(ctx, options);
    return;
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

/**
 * A built-in profile cannot go, but what was set on it (its URLs, its agent-writes policy) can:
 * it is back to its defaults. Its key stays (auth logout removes it).
 */
async function resetBuiltIn(ctx: RunOutput & RunServices, options: ProfileRemoveOptions) {
  const { name } = options;
  const before = (await (await ctx.config()).read()).profiles[name] ?? {};
  const settings = Object.keys(before).filter(
    (field) => field !== 'apiKey' && field !== 'keyStore',
  );
  if (settings.length === 0) {
    ctx.notice(`Profile ${name} is built in and has its defaults already; nothing changed.`);
    return;
  }
  if (!options.yes && !options.dryRun) {
    const agreed = await confirmed(
      ctx,
      `Reset built-in profile ${name} to its defaults (${settings.join(', ')}; its key stays)?`,
      {
        message: `resetting profile ${name} needs confirmation`,
        yesFlag: '--yes',
        undone: 'nothing was changed',
      },
    );
    if (!agreed) {
      ctx.notice('Nothing changed.');
      return;
    }
  }
  const changed = await changeConfig(ctx, options.dryRun, (data) => {
    const record = data.profiles[name];
    if (record === undefined) return;
    const kept = { apiKey: record.apiKey, keyStore: record.keyStore };
    const left = Object.fromEntries(
      Object.entries(kept).filter(([, value]) => value !== undefined),
    );
    data.profiles = Object.fromEntries(
      Object.entries(data.profiles).flatMap(([profileName, profile]) =>
        profileName !== name
          ? [[profileName, profile]]
          : Object.keys(left).length
            ? [[name, left]]
            : [],
      ),
    );
  });
  if (!changed) return;
  ctx.notice(
    `Profile ${name} is built in: reset to its defaults (${settings.join(', ')} cleared); its key, if any, stays (petstore auth logout --profile ${name} removes it).`,
  );
}

export function registerProfileRemove(profile: Command, runVerb: RunVerb): void {
  profile
    .command('remove')
    .description('Remove a profile of your own and its stored key; reset a built-in one')
    .argument('<NAME>', 'profile name')
    .addOption(yesOption())
    .addOption(dryRunOption(DRY_RUN.config))
    .addHelpText(
      'after',
      helpProse(`
A built-in profile (production, staging, sandbox) cannot be removed: what was set on it (its
URLs, its agent-writes policy) is cleared instead, back to its defaults; its key stays.

Examples:
  $ petstore profile remove qa --yes
  $ petstore profile remove production --yes`),
    )
    .action((name, flags, command) =>
      runVerb(
        command,
        () => ({ name, yes: flags.yes === true, dryRun: flags.dryRun === true }),
        runProfileRemove,
      ),
    );
}
