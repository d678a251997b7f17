import type { Command } from 'commander';
import type { RunVerb } from './program.js';

/** `auth login|status|logout`, for the profile chosen by --profile, PETSTORE_PROFILE or `profile use`. */
export function registerAuth(program: Command, runVerb: RunVerb): void {
  const auth = program.command('auth').description('Store, inspect and remove API keys');

  auth
    .command('login')
    .description('Store an API key for a profile (read hidden on a terminal, else from stdin)')
    .option('--no-verify', 'store the key without checking it with GET /pets?limit=1')
    .addHelpText(
      'after',
      `
The key is never taken from the command line. It is checked against the service before it is
stored; a 401 stores nothing and exits 3.

Examples:
  $ petstore auth login --profile staging
  $ printf '%s\\n' "$STAGING_KEY" | petstore auth login --profile staging`,
    )
    .action((flags: { verify: boolean }, command: Command) =>
      runVerb(command, async (ctx) => {
        const { runAuthLogin } = await import('../commands/auth.js');
        await runAuthLogin(ctx, { verify: flags.verify });
      }),
    );

  auth
    .command('status')
    .description('Show each profile’s key source and masked key')
    .addHelpText('after', '\nExample:\n  $ petstore auth status')
    .action((_flags: unknown, command: Command) =>
      runVerb(command, async (ctx) => {
        const { runAuthStatus } = await import('../commands/auth.js');
        await runAuthStatus(ctx);
      }),
    );

  auth
    .command('logout')
    .description('Remove the stored key of one profile')
    .addHelpText('after', '\nExample:\n  $ petstore auth logout --profile staging')
    .action((_flags: unknown, command: Command) =>
      runVerb(command, async (ctx) => {
        const { runAuthLogout } = await import('../commands/auth.js');
        await runAuthLogout(ctx);
      }),
    );
}
