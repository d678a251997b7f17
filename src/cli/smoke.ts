import type { Command } from 'commander';
import type { RunVerb } from './program.js';

export function registerSmoke(program: Command, runVerb: RunVerb): void {
  program
    .command('smoke')
    .description('Check that a deployment answers as the interface says (exit 8 on failure)')
    .option('--allow-writes', 'also run the checks that add a pet and send a message')
    .option('--junit <file>', 'write the results as a JUnit XML report')
    .addHelpText(
      'after',
      `
Without --allow-writes only reads are made (and one request with an invalid key).

Examples:
  $ petstore --profile staging smoke
  $ petstore --profile staging smoke --allow-writes --junit smoke.xml`,
    )
    .action((flags: { allowWrites?: boolean; junit?: string }, command: Command) =>
      runVerb(command, async (ctx) => {
        const { runSmoke } = await import('../commands/smoke.js');
        await runSmoke(ctx, { allowWrites: flags.allowWrites === true, junitFile: flags.junit });
      }),
    );
}
