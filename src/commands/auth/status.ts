import type { Command } from 'commander';
import type { RunVerb } from '../../cmdutil/run-verb.js';
import { environmentKey, profileNames, selectProfile } from '../../config/profiles.js';
import type { Context } from '../../context/context.js';
import type { Column } from '../../output/render.js';
import {
  baseUrlLabel,
  describeProfile,
  keySourceLabel,
  type ProfileView,
} from '../profile/view.js';

const AUTH_COLUMNS: Column<ProfileView>[] = [
  { header: 'profile', value: (view) => (view.active ? `${view.name} *` : view.name) },
  { header: 'keySource', value: keySourceLabel },
  { header: 'key', value: (view) => view.key ?? '' },
  { header: 'baseUrl', value: baseUrlLabel },
];

export async function runAuthStatus(ctx: Context): Promise<void> {
  const data = await (await ctx.config()).read();
  const names = ctx.settings.profile
    ? [selectProfile(ctx.settings.profile, data).name]
    : profileNames(data);
  const views = names.map((name) => describeProfile(name, data, ctx.env));
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
