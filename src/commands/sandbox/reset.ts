import { sandboxDbOption, yesOption } from '../../cmdutil/options.js';
import { existsSync } from 'node:fs';
import type { Command } from '@commander-js/extra-typings';
import { confirmed } from '../../cmdutil/confirm.js';
import type { RunVerb } from '../../cmdutil/run-verb.js';
import { sandboxDatabaseFile } from '../../config/paths.js';
import type { RunOutput, RunServices } from '../../context/context.js';

export interface SandboxResetOptions {
  /** A SQLite file; default: the sandbox profile's. */
  database: string | undefined;
  /** Empty it without asking. */
  yes: boolean;
}

export async function runSandboxReset(
  ctx: RunOutput & RunServices,
  options: SandboxResetOptions,
): Promise<void> {
  const database = options.database ?? sandboxDatabaseFile(ctx.env);
  if (!options.yes) {
    const question = `Delete every pet and message in the sandbox (${database})?`;
    const yes = await confirmed(ctx, question, {
      message: `resetting the sandbox (${database}) needs confirmation`,
      yesFlag: '--yes',
      undone: 'nothing was deleted',
    });
    if (!yes) {
      ctx.notice('Nothing deleted.');
      return;
    }
  }
  if (!existsSync(database)) {
    ctx.notice('The sandbox is already empty.');
    return;
  }
  const { openSandboxDatabase } = await import('../../sandbox/server.js');
  const db = openSandboxDatabase(database);
  try {
    const removed = db.reset();
    ctx.notice(`Sandbox emptied: ${removed} pet(s) deleted.`);
  } finally {
    db.close();
  }
}

export function registerSandboxReset(sandbox: Command, runVerb: RunVerb): void {
  sandbox
    .command('reset')
    .description('Delete every pet and message in the sandbox')
    .addOption(sandboxDbOption('SQLite file (default: the sandbox profile’s)'))
    .addOption(yesOption())
    .addHelpText('after', '\nExample:\n  $ petstore sandbox reset --yes')
    .action((flags, command) =>
      runVerb(command, () => ({ database: flags.db, yes: flags.yes === true }), runSandboxReset),
    );
}
