import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { isLoopbackHost } from '../api/url-policy.js';
import type { Context } from '../context.js';
import { InterruptedError, UsageError } from '../errors.js';
import { confirm } from '../output/prompt.js';
import { sandboxDatabasePath } from '../sandbox/launcher.js';
import { openSandboxDatabase, startSandboxServer } from '../sandbox/server.js';

export interface SandboxServeOptions {
  host: string;
  port: number;
  database: string | undefined;
  memory: boolean;
  apiKeys: string[];
  idStart: bigint | undefined;
  /** Resolves with the signal that asked the server to stop. */
  waitForStop: () => Promise<NodeJS.Signals>;
}

export async function runSandboxServe(ctx: Context, options: SandboxServeOptions): Promise<void> {
  const database = options.memory ? ':memory:' : (options.database ?? sandboxDatabasePath(ctx));
  if (!options.memory && options.database === undefined) {
    await mkdir(dirname(database), { recursive: true, mode: 0o700 });
  }
  if (!isLoopbackHost(options.host)) {
    ctx.warn(`listening on ${options.host}: the sandbox is reachable from other machines`);
  }
  const server = await startSandboxServer({
    host: options.host,
    port: options.port,
    database,
    apiKeys: options.apiKeys,
    idStart: options.idStart,
  });
  // Listen for the stop signals before saying we are ready, so a signal sent on seeing the
  // last line below is always handled.
  const stopped = options.waitForStop();
  const write = (line: string) => ctx.io.stderr.write(`${line}\n`);
  write(`Sandbox Animal Store listening (data: ${options.memory ? 'in memory' : database})`);
  write(`  API base URL:        ${server.apiBaseUrl}`);
  write(`  quickstart base URL: ${server.quickstartUrl}`);
  write(`  accepted API key(s): ${options.apiKeys.join(', ')}`);
  write('Stop with Ctrl-C.');
  const signal = await stopped;
  await server.close();
  write('Sandbox stopped.');
  if (signal === 'SIGINT')
    throw new InterruptedError('interrupted; the sandbox was stopped cleanly');
}

export async function runSandboxReset(
  ctx: Context,
  options: { database: string | undefined; yes: boolean },
): Promise<void> {
  const database = options.database ?? sandboxDatabasePath(ctx);
  if (!options.yes) {
    if (!ctx.io.stdinIsTTY || !ctx.io.stderrIsTTY) {
      throw new UsageError(`resetting the sandbox (${database}) needs confirmation`, {
        hint: 'Pass --yes to empty it without asking.',
      });
    }
    if (!(await confirm(ctx.io, `Delete every pet and message in the sandbox (${database})?`))) {
      ctx.notice('Nothing deleted.');
      return;
    }
  }
  if (!existsSync(database)) {
    ctx.notice('The sandbox is already empty.');
    return;
  }
  const db = openSandboxDatabase(database);
  try {
    const removed = db.reset();
    ctx.notice(`Sandbox emptied: ${removed} pet(s) deleted.`);
  } finally {
    db.close();
  }
}
