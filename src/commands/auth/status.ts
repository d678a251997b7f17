import type { Command } from '@commander-js/extra-typings';
import type { RunVerb } from '../../cmdutil/run-verb.js';
import { KeyringUnavailableError } from '../../config/keyring.js';
import {
  environmentKey,
  profileNames,
  selectProfile,
  storedProfile,
} from '../../config/profiles.js';
import type { RunOutput, RunServices, RunState } from '../../context/context.js';
import type { Column } from '../../output/render.js';
import {
  baseUrlLabel,
  describeProfile,
  keySourceLabel,
  type ProfileView,
} from '../../cmdutil/profile-view.js';

const AUTH_COLUMNS: Column<ProfileView>[] = [
  { header: 'profile', value: (view) => (view.active ? `${view.name} *` : view.name) },
  { header: 'keySource', value: keySourceLabel },
  { header: 'key', value: (view) => view.key ?? '' },
  { header: 'baseUrl', value: baseUrlLabel },
];

export async function runAuthStatus(ctx: RunOutput & RunServices & RunState): Promise<void> {
  const data = await (await ctx.config()).read();
  const names = ctx.settings.profile
    ? [selectProfile(ctx.settings.profile, data).name]
    : profileNames(data);
  // Keys in the OS keyring are read (all at once, each with the keyring's deadline) only to be
  // shown masked; env keys hide them, so then they are not read at all.
  const fromKeyring = await Promise.all(
    names.map(async (name) => {
      if (environmentKey(ctx.env) || storedProfile(data, name).keyStore !== 'keyring') return;
      try {
        const key = await ctx.keyring().get(name);
        if (key !== undefined) ctx.protectSecret(key);
        return key === undefined ? { problem: 'missing from the keyring' } : { key };
      } catch (error) {
        if (!(error instanceof KeyringUnavailableError)) throw error;
        return { problem: `keyring unavailable: ${error.reason}` };
      }
    }),
  );
  const views = names.map((name, index) =>
    describeProfile(name, data, ctx.env, fromKeyring[index]),
  );
  await ctx.render(views, AUTH_COLUMNS);
  if (environmentKey(ctx.env)) {
    const hidden = views
      .filter((view) => view.overriddenStoredKey)
      .map((view) => `${view.name} (${view.overriddenStoredKey!})`);
    ctx.notice(
      'PETSTORE_API_KEY is set: it overrides the stored key of whichever profile is used' +
        (hidden.length > 0 ? `; stored keys it hides: ${hidden.join(', ')}.` : '.'),
    );
  }
}

export function registerAuthStatus(auth: Command, runVerb: RunVerb): void {
  auth
    .command('status')
    .description('Show each profile’s key source and masked key')
    .addHelpText('after', '\nExample:\n  $ petstore auth status')
    .action((_flags: unknown, command: Command) => runVerb(command, () => ({}), runAuthStatus));
}
