import { makeFolder } from '../core/make-folder.js';
import { dirname } from 'node:path';
import { DEFAULT_SANDBOX_KEY } from '../core/contract.js';
import { ConfigError } from '../core/errors.js';
import { randomHex } from '../core/random-hex.js';
import { startSandboxServer, type SandboxAddress } from './server.js';

export interface LaunchedSandbox {
  baseUrl: string;
  quickstartUrl: string;
  apiKey: string;
  /** The local socket the base URL's origin is reached through, where there is one. */
  socketPath: string | undefined;
  close: () => Promise<void>;
}

/**
 * Where the embedded service listens. On Linux, an abstract local socket: no file to clean up,
 * nothing on the network, and about 7 ms less to start than a loopback port (a TCP listen
 * resolves its host and compiles Node's IPv6 pattern). Elsewhere, an ephemeral loopback port.
 */
function sandboxAddress(): SandboxAddress {
  if (process.platform === 'linux') {
    return { socketPath: `\0petstore-sandbox-${process.pid}-${randomHex(8)}` };
  }
  return { host: '127.0.0.1', port: 0 };
}

/**
 * The built-in `sandbox` profile: the embedded service on a local socket or an ephemeral
 * loopback port, with a key made for this run only. Commands reach it over real HTTP, like
 * any other service.
 */
export async function launchSandbox(options: {
  databaseFile: string;
  /** A key the user gave (PETSTORE_API_KEY): accepted too, so it works here as anywhere. */
  acceptKey?: string | undefined;
}): Promise<LaunchedSandbox> {
  const { databaseFile, acceptKey } = options;
  const folder = dirname(databaseFile);
  try {
    await makeFolder(folder, 0o700);
  } catch (error) {
    throw new ConfigError(`cannot create the sandbox data folder ${folder}`, databaseFile, {
      hint: 'Check its permissions, or set XDG_DATA_HOME to a writable folder.',
      cause: error,
    });
  }
  const apiKey = `sk_sandbox_${randomHex(16)}`;
  const address = sandboxAddress();
  const sandbox = await startSandboxServer({
    ...address,
    database: databaseFile,
    apiKeys: acceptKey === undefined ? [apiKey] : [apiKey, acceptKey],
    // Each run has a key of its own, but it is the same user: an Idempotency-Key sent again
    // by a later run (a resume, --idempotency-key) must find the first answer. The caller of
    // `sandbox serve`'s default key, so the two share them over the same file.
    caller: DEFAULT_SANDBOX_KEY,
    databaseHint: `The sandbox profile keeps its pets there. Move the file away (mv ${databaseFile} ${databaseFile}.bad) to start with an empty sandbox, or set XDG_DATA_HOME to use another folder.`,
  });
  return {
    baseUrl: sandbox.apiBaseUrl,
    quickstartUrl: sandbox.quickstartUrl,
    apiKey,
    socketPath: 'socketPath' in address ? address.socketPath : undefined,
    close: sandbox.close,
  };
}
