import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname } from 'node:path';
import type { AddressInfo } from 'node:net';
import { ApiError, ConfigError } from '../core/errors.js';
import { SandboxDatabase, type DatabaseOptions } from './database.js';
import { Faults, type FaultSettings } from './faults.js';
import { sqliteFailure } from '../core/sqlite.js';
import {
  API_BASE_PATH,
  createSandboxHandler,
  QUICKSTART_BASE_PATH,
  type ServedRequest,
} from './service.js';

export type { ServedRequest } from './service.js';

/** Where the server listens: a TCP address, or a local socket (a path, or \0name on Linux). */
export type SandboxAddress = { host: string; port: number } | { socketPath: string };

export type SandboxServerOptions = SandboxAddress & SandboxServerSettings;

interface SandboxServerSettings {
  /** A SQLite file, or ':memory:'. */
  database: string;
  apiKeys: string[];
  /**
   * The caller every accepted key stands for, when not itself: Idempotency-Keys are kept per
   * caller. The sandbox profile makes a new key each run for one and the same user.
   */
  caller?: string | undefined;
  idStart?: bigint | undefined;
  /** Every commit synced to disk (synchronous=FULL), at a cost in write speed. */
  durable?: boolean | undefined;
  /** How long a write waits on another process's lock before 503 database_busy (tests). */
  busyTimeoutMs?: number | undefined;
  /** What to suggest when the database is damaged (SQLITE_CORRUPT, SQLITE_NOTADB). */
  databaseHint?: string | undefined;
  /** Faults to show on purpose (sandbox serve only). */
  faults?: FaultSettings | undefined;
  /** The clock Idempotency-Key lifetimes are measured by; Date.now when absent (tests). */
  now?: (() => number) | undefined;
  /** Lines for the operator (sandbox serve writes them to its stderr). */
  log?: ((line: string) => void) | undefined;
  /** Told of every request served (sandbox serve logs a line for each). */
  onRequest?: ((request: ServedRequest) => void) | undefined;
  /** Told of every request as it comes in, before any latency or fault: what tests wait on. */
  onArrival?: ((method: string, path: string) => void) | undefined;
}

export interface RunningSandbox {
  /** On a local socket: http://127.0.0.1/v1, reached through `socketPath`. */
  apiBaseUrl: string;
  quickstartUrl: string;
  /** One line per fault that is on; empty when none is. */
  faults: string[];
  close: () => Promise<void>;
}

function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

/**
 * Opens the database, or says why not. `hint` is what the caller's user can do about it, since
 * only the caller knows which flags its command has.
 */
export function openSandboxDatabase(
  database: string,
  options: DatabaseOptions & { hint?: string | undefined } = {},
): SandboxDatabase {
  const folder = dirname(database);
  if (database !== ':memory:' && !existsSync(folder)) {
    throw new ConfigError(
      `cannot open the sandbox database ${database}: the folder ${folder} does not exist`,
      database,
      { hint: `Create it first (mkdir -p ${folder}), or choose another place.` },
    );
  }
  try {
    const { idStart, durable, busyTimeoutMs } = options;
    return new SandboxDatabase(database, { idStart, durable, busyTimeoutMs });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const failure = sqliteFailure(error);
    if (failure === 'transient') {
      // Another process holds the file: nothing is wrong with it, and nothing was done.
      throw new ApiError(
        503,
        'database_busy',
        `the sandbox database ${database} is in use by another process (${reason}); nothing was done`,
        { hint: 'Run the command again in a moment.', cause: error },
      );
    }
    if (failure === 'damaged') {
      throw new ConfigError(
        `cannot open the sandbox database ${database}: it is damaged (${reason})`,
        database,
        {
          hint:
            options.hint ??
            `Move the file away to start with an empty sandbox: mv ${database} ${database}.bad`,
          cause: error,
        },
      );
    }
    throw new ConfigError(`cannot open the sandbox database ${database}: ${reason}`, database, {
      hint: 'Check that the file and its folder can be read and written, and that the disk has room.',
      cause: error,
    });
  }
}

export async function startSandboxServer(options: SandboxServerOptions): Promise<RunningSandbox> {
  const db = openSandboxDatabase(options.database, {
    idStart: options.idStart,
    durable: options.durable,
    busyTimeoutMs: options.busyTimeoutMs,
    hint: options.databaseHint,
  });
  const faults = options.faults ? new Faults(options.faults) : undefined;
  const server = createServer(
    createSandboxHandler({
      db,
      apiKeys: new Map(options.apiKeys.map((key) => [key, options.caller ?? key])),
      faults,
      now: options.now,
      log: options.log,
      onRequest: options.onRequest,
    }),
  );
  server.keepAliveTimeout = 5_000;
  const { onArrival } = options;
  if (onArrival)
    server.on('request', (request) => onArrival(request.method ?? '', request.url ?? ''));
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      const listening = () => {
        server.off('error', reject);
        resolve();
      };
      if ('socketPath' in options) server.listen(options.socketPath, listening);
      else server.listen(options.port, options.host, listening);
    });
  } catch (error) {
    db.close();
    throw error;
  }
  // A request through a local socket still names a host: this machine, as an address, since a
  // client tells a name from an address with Node's IPv6 pattern (5 ms to compile) first.
  const origin =
    'socketPath' in options
      ? 'http://127.0.0.1'
      : `http://${urlHost(options.host)}:${(server.address() as AddressInfo).port}`;
  return {
    apiBaseUrl: `${origin}${API_BASE_PATH}`,
    quickstartUrl: `${origin}${QUICKSTART_BASE_PATH}`,
    faults: faults?.describe() ?? [],
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          db.close();
          resolve();
        });
        server.closeIdleConnections();
      }),
  };
}
