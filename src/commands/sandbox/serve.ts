import { sandboxDbOption } from '../../cmdutil/options.js';
import { makeFolder } from '../../core/make-folder.js';
import { helpProse } from '../../cmdutil/help-text.js';
import type { ServedRequest } from '../../sandbox/server.js';
import { dirname } from 'node:path';
import type { Command } from '@commander-js/extra-typings';
import { isLoopbackHost } from '../../api/url-policy.js';
import { int64Flag, wholeNumberFlag } from '../../cmdutil/flags.js';
import type { FlagsOf, RunVerb } from '../../cmdutil/run-verb.js';
import { sandboxDatabaseFile } from '../../config/paths.js';
import type { RunOutput, RunServices } from '../../context/context.js';
import { DEFAULT_SANDBOX_KEY, DEFAULT_SANDBOX_PORT, PORT } from '../../core/contract.js';
import { apiKeyProblem } from '../../core/api-key.js';
import { InterruptedError, UsageError } from '../../core/errors.js';
import { stringifyJson } from '../../core/json.js';
import { MIN_FINDABLE_SECRET, unfindableBecause } from '../../core/redaction/index.js';
import type { StopSignal } from '../../core/io.js';
import type { FaultSettings } from '../../sandbox/faults.js';
import { toFaultSettings, withFaultFlags } from './fault-flags.js';

export interface SandboxServeOptions {
  host: string;
  port: number;
  /** A SQLite file; default: the sandbox profile's. */
  database: string | undefined;
  memory: boolean;
  apiKeys: string[];
  idStart: bigint | undefined;
  durable: boolean;
  /** Faults to show on purpose; undefined for a well-behaved sandbox. */
  faults: FaultSettings | undefined;
}

/** `sandbox serve`'s flags, declared once, its fault flags with them. */
function declareSandboxServe(sandbox: Command) {
  const serve = sandbox
    .command('serve')
    .description('Serve the sandbox over HTTP until Ctrl-C')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option(
      '--port <port>',
      `port to listen on (0 picks a free one)`,
      wholeNumberFlag('--port', PORT),
      DEFAULT_SANDBOX_PORT,
    )
    .addOption(sandboxDbOption('SQLite file (default: the sandbox profile’s, in the data folder)'))
    .option('--memory', 'keep data in memory only')
    .option(
      '--api-key <key...>',
      `API key(s) the sandbox accepts (default: ${DEFAULT_SANDBOX_KEY})`,
      (key: string, previous?: string[]) => [...(previous ?? []), checkedKey(key)],
    )
    .option(
      '--id-start <int64>',
      'first id to assign (e.g. beyond 2^53, for tests)',
      int64Flag('--id-start'),
    )
    .option('--durable', 'sync every write to disk, so none is lost to a power cut (slower)');
  return withFaultFlags(serve).addHelpText(
    'after',
    helpProse(`
The API is served under /v1 and the quickstart operation under /quickstart.

Faults are off unless asked for; the banner lists those that are on. The same --seed draws the
same faults for the same sequence of requests.

Examples:
  $ petstore sandbox serve --port 4010 --memory
  $ petstore sandbox serve --memory --drop-after-send 0.1 --latency 20-200 --seed 7
  $ petstore profile set local --base-url http://127.0.0.1:4010/v1 --quickstart-url http://127.0.0.1:4010/quickstart`),
  );
}

type Flags = FlagsOf<ReturnType<typeof declareSandboxServe>>;

/**
 * A key the sandbox can accept and the client can keep out of its output: visible ASCII (what
 * a header carries unchanged), 8 characters or more (a shorter one cannot be told from data).
 */
function checkedKey(key: string): string {
  const unfindable = unfindableBecause(key);
  const problem =
    apiKeyProblem(key) ??
    (unfindable && `${unfindable}: petstore could not tell it from data to mask it`);
  if (problem) {
    throw new UsageError(`--api-key is not a usable key: ${problem}`, {
      hint: `Give a key of ${MIN_FINDABLE_SECRET} or more visible ASCII characters, with a letter, e.g. --api-key sk_local_test.`,
    });
  }
  return key;
}

export function toSandboxServeOptions(flags: Flags): SandboxServeOptions {
  if (flags.db !== undefined && flags.memory) {
    throw new UsageError('give --db FILE or --memory, not both');
  }
  return {
    host: flags.host,
    port: flags.port,
    database: flags.db,
    memory: flags.memory === true,
    apiKeys: flags.apiKey ?? [DEFAULT_SANDBOX_KEY],
    idStart: flags.idStart === undefined ? undefined : BigInt(flags.idStart),
    durable: flags.durable === true,
    faults: toFaultSettings(flags),
  };
}

export async function runSandboxServe(
  ctx: RunOutput & RunServices,
  options: SandboxServeOptions,
): Promise<void> {
  const database = options.memory ? ':memory:' : (options.database ?? sandboxDatabaseFile(ctx.env));
  if (!options.memory && options.database === undefined) {
    await makeFolder(dirname(database), 0o700);
  }
  const json = ctx.settings.errorsAsJson;
  if (!isLoopbackHost(options.host)) {
    ctx.warn(`listening on ${options.host}: the sandbox is reachable from other machines`);
  }
  const { startSandboxServer } = await import('../../sandbox/server.js');
  const server = await startSandboxServer({
    host: options.host,
    port: options.port,
    database,
    apiKeys: options.apiKeys,
    idStart: options.idStart,
    faults: options.faults,
    durable: options.durable,
    log: (line) => ctx.io.stderr.write(`petstore sandbox: ${line}\n`),
    // What a person's script sent, as it arrives: one line a request (none with --quiet).
    onRequest: ctx.settings.quiet
      ? undefined
      : (request) =>
          json
            ? ctx.io.stderr.write(`${stringifyJson({ request: requestFields(request) })}\n`)
            : ctx.notice(requestLine(request)),
    databaseHint: `Move the file away (mv ${database} ${database}.bad) to start with an empty sandbox, or use another: --db FILE, or --memory.`,
  }).catch((error: unknown) => {
    throw listenError(error, options) ?? error;
  });
  // Listen for the stop signals before saying we are ready, so a signal sent on seeing the
  // last line below is always handled.
  const stopped = new Promise<StopSignal>((resolve) => {
    const stopListening = ctx.io.onSignal((signal) => {
      stopListening();
      resolve(signal);
    });
  });
  const write = (line: string) => ctx.io.stderr.write(`${line}\n`);
  const data = options.memory ? 'in memory' : database;
  if (json) {
    // Errors as JSON (stderr a pipe, -o json): one object a script reads the URLs from.
    const { apiBaseUrl, quickstartUrl, faults } = server;
    const about = { data, apiBaseUrl, quickstartUrl, apiKeys: options.apiKeys, faults };
    write(stringifyJson({ sandbox: { listening: true, ...about } }));
  } else {
    banner(write, data, server, options.apiKeys);
  }
  const signal = await stopped;
  await server.close();
  // Ended as every command a signal stops ends (130 for Ctrl-C, 143 for SIGTERM), saying it
  // stopped cleanly: a service manager is told so by SuccessExitStatus=143 (docs/sandbox.md).
  const how = signal === 'SIGINT' ? 'interrupted' : 'terminated';
  throw new InterruptedError(`${how}; the sandbox was stopped cleanly`, { signal });
}

/** What a person reads when the sandbox is up: where it listens, the keys, how to stop it. */
function banner(
  write: (line: string) => void,
  data: string,
  server: { apiBaseUrl: string; quickstartUrl: string; faults: readonly string[] },
  apiKeys: readonly string[],
): void {
  write(`Sandbox Animal Store listening (data: ${data})`);
  write(`  API base URL:        ${server.apiBaseUrl}`);
  write(`  quickstart base URL: ${server.quickstartUrl}`);
  write(`  accepted API key(s): ${apiKeys.join(', ')}`);
  if (server.faults.length > 0) {
    write('Faults on (asked for with the flags):');
    for (const line of server.faults) write(`  ${line}`);
  }
  write('Stop with Ctrl-C.');
}

/** A request as JSON: what requestLine says, in fields. */
export function requestFields(request: ServedRequest) {
  const key = request.idempotencyKey;
  return {
    at: new Date().toISOString(),
    method: request.method,
    path: request.path,
    status: request.status ?? null,
    ms: Math.round(request.ms),
    ...(key === undefined
      ? {}
      : { idempotencyKey: `…${key.slice(-6)}`, replayed: request.replayed }),
    ...(request.traceparent === undefined ? {} : { traceparent: request.traceparent }),
  };
}

/**
 * `15:04:05.123Z POST /v1/pets 201 3 ms idempotency-key …c3f9a1 replayed`: when, what, how it
 * was answered and how fast; of an Idempotency-Key its end only (enough to tell one from
 * another), and whether the answer was a replay. No API key is ever shown.
 */
export function requestLine(request: ServedRequest): string {
  const at = new Date().toISOString().slice(11);
  const status = request.status === undefined ? 'no answer' : String(request.status);
  const key = request.idempotencyKey;
  const idempotency =
    key === undefined
      ? ''
      : ` idempotency-key …${key.slice(-6)}${request.replayed ? ' replayed' : ''}`;
  // The trace id only (what joins it to the client's history), not the span.
  const trace =
    request.traceparent === undefined ? '' : ` trace ${request.traceparent.slice(3, 35)}`;
  return `${at} ${request.method} ${request.path} ${status} ${Math.round(request.ms)} ms${idempotency}${trace}`;
}

/** Why the sandbox could not listen, said in terms of the flags that choose where. */
function listenError(error: unknown, options: SandboxServeOptions): UsageError | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const where = `${options.host} port ${options.port}`;
  switch (code) {
    case 'EADDRINUSE':
      return new UsageError(`${where} is already in use`, {
        hint: 'Stop what listens there, or choose another port: --port N (0 picks a free one).',
      });
    case 'EACCES':
      return new UsageError(`not allowed to listen on ${where}`, {
        hint: 'Ports below 1024 need privileges: choose another with --port N.',
      });
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new UsageError(`cannot listen on ${options.host}: not an address of this machine`, {
        hint: 'Give an address this machine has with --host, e.g. --host 127.0.0.1.',
      });
    default:
      return undefined;
  }
}

export function registerSandboxServe(sandbox: Command, runVerb: RunVerb): void {
  const serve = declareSandboxServe(sandbox);
  serve.action((flags) => runVerb(serve, () => toSandboxServeOptions(flags), runSandboxServe));
}
