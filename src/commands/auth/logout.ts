import type { Command } from 'commander';
import type { RunVerb } from '../../cmdutil/run-verb.js';
import { maskKey } from '../../config/profiles.js';
import type { Context } from '../../context/context.js';
import { selectedProfileName } from './selected-profile.js';

export async function runAuthLogout(ctx: Context): Promise<void> {
  const profile = await selectedProfileName(ctx);
  let removed: string | undefined;
  await (
    await ctx.config()
  ).update((data) => {
    const record = data.profiles[profile];
    if (record?.apiKey === undefined) return;
    removed = maskKey(record.apiKey);
    delete record.apiKey;
  });
  ctx.notice(
    removed
      ? `Removed the stored key ${removed} of profile ${profile}.`
      : `Profile ${profile} has no stored key; nothing removed.`,
  );
}

export function registerAuthLogout(auth: Command, runVerb: RunVerb): void {
  auth
    .command('logout')
    .description('Remove the stored key of one profile')
    .addHelpText('after', '\nExample:\n  $ petstore auth logout --profile staging')
    .action((_flags: unknown, command: Command) => runVerb(command, () => ({}), runAuthLogout));
}
