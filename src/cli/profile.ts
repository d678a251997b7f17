import type { Command } from 'commander';
import type { RunVerb } from './program.js';

interface SetFlags {
  baseUrl?: string;
  quickstartUrl?: string;
}

/** `profile list|show|use|set|remove`: each verb parses its flags and runs its function. */
export function registerProfile(program: Command, runVerb: RunVerb): void {
  const profile = program
    .command('profile')
    .description('Manage profiles: production, staging, sandbox and your own');

  profile
    .command('list')
    .description('List profiles; * marks the active one')
    .addHelpText('after', '\nExample:\n  $ petstore profile list --json')
    .action((_flags: unknown, command: Command) =>
      runVerb(command, async (ctx) => {
        const { runProfileList } = await import('../commands/profile.js');
        await runProfileList(ctx);
      }),
    );

  profile
    .command('show')
    .description('Show a profile (default: the one in use): URLs, masked key, key source')
    .argument('[NAME]', 'profile name')
    .addHelpText('after', '\nExample:\n  $ petstore profile show staging')
    .action((name: string | undefined, _flags: unknown, command: Command) =>
      runVerb(command, async (ctx) => {
        const { runProfileShow } = await import('../commands/profile.js');
        await runProfileShow(ctx, name);
      }),
    );

  profile
    .command('use')
    .description('Make a profile the active one')
    .argument('<NAME>', 'profile name')
    .addHelpText('after', '\nExample:\n  $ petstore profile use staging')
    .action((name: string, _flags: unknown, command: Command) =>
      runVerb(command, async (ctx) => {
        const { runProfileUse } = await import('../commands/profile.js');
        await runProfileUse(ctx, name);
      }),
    );

  profile
    .command('set')
    .description('Create a profile or change its URLs')
    .argument('<NAME>', 'profile name')
    // Named like the global --base-url / --quickstart-url and read from the merged options.
    .addHelpText(
      'after',
      `
Uses the global --base-url URL and --quickstart-url URL options.

Examples:
  $ petstore profile set staging --base-url https://staging.animal-store.example.com/v1
  $ petstore profile set qa --base-url https://qa.example.com/v1 --quickstart-url https://qa.example.com/quickstart`,
    )
    .action((name: string, _flags: unknown, command: Command) =>
      runVerb(command, async (ctx) => {
        const flags = command.optsWithGlobals<SetFlags>();
        const { runProfileSet } = await import('../commands/profile.js');
        await runProfileSet(ctx, {
          name,
          baseUrl: flags.baseUrl,
          quickstartUrl: flags.quickstartUrl,
        });
      }),
    );

  profile
    .command('remove')
    .description('Remove a profile of your own and its stored key')
    .argument('<NAME>', 'profile name')
    .option('-y, --yes', 'do not ask for confirmation')
    .addHelpText('after', '\nExample:\n  $ petstore profile remove qa --yes')
    .action((name: string, flags: { yes?: boolean }, command: Command) =>
      runVerb(command, async (ctx) => {
        const { runProfileRemove } = await import('../commands/profile.js');
        await runProfileRemove(ctx, name, flags.yes === true);
      }),
    );
}
