import type { Command } from 'commander';
import { parseInt64 } from '../api/int64.js';
import { UsageError } from '../errors.js';
import type { RunVerb } from './program.js';

interface ServeFlags {
  host?: string;
  port?: string;
  db?: string;
  memory?: boolean;
  apiKey?: string[];
  idStart?: string;
}

export const DEFAULT_SANDBOX_PORT = 4010;
export const DEFAULT_SANDBOX_KEY = 'sandbox-key';

function parsePort(text: string | undefined): number {
  if (text === undefined) return DEFAULT_SANDBOX_PORT;
  if (!/^\d+$/.test(text) || Number(text) > 65535) {
    throw new UsageError(`--port must be a whole number from 0 to 65535, got "${text}"`);
  }
  return Number(text);
}

/** Resolves when the process is asked to stop (Ctrl-C or a service manager). */
function waitForStop(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve(signal);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

export function registerSandbox(program: Command, runVerb: RunVerb): void {
  const sandbox = program.command('sandbox').description('The embedded local Animal Store service');

  sandbox
    .command('serve')
    .description('Serve the sandbox over HTTP until Ctrl-C')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <port>', `port to listen on (0 picks a free one)`, String(DEFAULT_SANDBOX_PORT))
    .option('--db <file>', 'SQLite file (default: the sandbox profile’s, in the data folder)')
    .option('--memory', 'keep data in memory only')
    .option(
      '--api-key <key...>',
      `API key(s) the sandbox accepts (default: ${DEFAULT_SANDBOX_KEY})`,
    )
    .option('--id-start <int64>', 'first id to assign (e.g. beyond 2^53, for tests)')
    .addHelpText(
      'after',
      `
The API is served under /v1 and the quickstart operation under /quickstart.

Examples:
  $ petstore sandbox serve --port 4010 --memory
  $ petstore profile set local --base-url http://127.0.0.1:4010/v1 --quickstart-url http://127.0.0.1:4010/quickstart`,
    )
    .action((flags: ServeFlags, command: Command) =>
      runVerb(command, async (ctx) => {
        if (flags.db !== undefined && flags.memory) {
          throw new UsageError('give --db FILE or --memory, not both');
        }
        const idStart =
          flags.idStart === undefined ? undefined : BigInt(parseInt64(flags.idStart, '--id-start'));
        const { runSandboxServe } = await import('../commands/sandbox.js');
        await runSandboxServe(ctx, {
          host: flags.host ?? '127.0.0.1',
          port: parsePort(flags.port),
          database: flags.db,
          memory: flags.memory === true,
          apiKeys: flags.apiKey ?? [DEFAULT_SANDBOX_KEY],
          idStart,
          waitForStop,
        });
      }),
    );

  sandbox
    .command('reset')
    .description('Delete every pet and message in the sandbox')
    .option('--db <file>', 'SQLite file (default: the sandbox profile’s)')
    .option('-y, --yes', 'do not ask for confirmation')
    .addHelpText('after', '\nExample:\n  $ petstore sandbox reset --yes')
    .action((flags: { db?: string; yes?: boolean }, command: Command) =>
      runVerb(command, async (ctx) => {
        const { runSandboxReset } = await import('../commands/sandbox.js');
        await runSandboxReset(ctx, { database: flags.db, yes: flags.yes === true });
      }),
    );
}
