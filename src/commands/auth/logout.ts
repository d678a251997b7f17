import type { Command } from 'commander';
import { changeConfig } from '../config-change.js';
import type { RunVerb } from '../../cmdutil/run-verb.js';
import { maskKey } from '../../config/profiles.js';
import type { Context } from '../../context/context.js';
import { selectedProfileName } from './selected-profile.js';

export async function runAuthLogout(ctx: Context, options: { dryRun: boolean }): Promise<void> {
  const profile = await selectedProfileName(ctx);
  let removed: string | undefined;
  const changed = await changeConfig(ctx, options.dryRun, (data) => {
    const record = data.profiles[profile];
    if (record?.apiKey === undefined) return;
    removed = maskKey(record.apiKey);
    delete record.apiKey;
  });
  if (!changed) return;
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
    .option('--dry-run', 'print what would change in the config file (keys masked); write nothing')
    .addHelpText('after', '\nExample:\n  $ petstore auth logout --profile staging')
    .action((flags: { dryRun?: boolean }, command: Command) =>
      runVerb(command, () => ({ dryRun: flags.dryRun === true }), runAuthLogout),
    );
}
