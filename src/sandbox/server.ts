import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConfigError } from '../core/errors.js';
import { SandboxDatabase } from './database.js';
import { API_BASE_PATH, createSandboxHandler, QUICKSTART_BASE_PATH } from './service.js';

export interface SandboxServerOptions {
  host: string;
  port: number;
  /** A SQLite file, or ':memory:'. */
  database: string;
  apiKeys: string[];
  idStart?: bigint | undefined;
}

export interface RunningSandbox {
  apiBaseUrl: string;
  quickstartUrl: string;
  close: () => Promise<void>;
}

function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

export function openSandboxDatabase(database: string, idStart?: bigint): SandboxDatabase {
  try {
    return new SandboxDatabase(database, idStart);
  } catch (error) {
    throw new ConfigError(
      `cannot open the sandbox database ${database}: ${error instanceof Error ? error.message : String(error)}`,
      database,
      {
        hint: 'Move the file away to start with an empty sandbox, or pass --db FILE.',
        cause: error,
      },
    );
  }
}

export async function startSandboxServer(options: SandboxServerOptions): Promise<RunningSandbox> {
  const db = openSandboxDatabase(options.database, options.idStart);
  const server = createServer(createSandboxHandler({ db, apiKeys: new Set(options.apiKeys) }));
  server.keepAliveTimeout = 5_000;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port, options.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    db.close();
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  const origin = `http://${urlHost(options.host)}:${port}`;
  return {
    apiBaseUrl: `${origin}${API_BASE_PATH}`,
    quickstartUrl: `${origin}${QUICKSTART_BASE_PATH}`,
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
