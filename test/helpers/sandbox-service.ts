import { afterEach } from 'vitest';
import type { FaultSettings } from '../../src/sandbox/faults.js';
import type { ServedRequest } from '../../src/sandbox/service.js';
import { startSandboxServer, type RunningSandbox } from '../../src/sandbox/server.js';
import { freshHome } from './run-cli.js';

const KEY = 'sk_in_process_sandbox';
const running: RunningSandbox[] = [];
// Registered for each test file that imports this helper.
afterEach(async () => {
  for (const sandbox of running.splice(0)) await sandbox.close();
});

/**
 * The sandbox service in this process, over real HTTP on 127.0.0.1, for command tests that
 * need a service which behaves (idempotency, validation, pagination); stopped after each test.
 */
export async function sandboxService(faults?: FaultSettings) {
  /** Every request the service answered (or dropped), in order, and when it came in. */
  const served: (ServedRequest & { arrivedAt: number })[] = [];
  /** Every request as it came in, before its answer (and any latency). */
  const arrived: { method: string; path: string }[] = [];
  const sandbox = await startSandboxServer({
    onRequest: (request) => served.push({ ...request, arrivedAt: performance.now() - request.ms }),
    onArrival: (method, path) => arrived.push({ method, path }),
    host: '127.0.0.1',
    port: 0,
    database: ':memory:',
    apiKeys: [KEY],
    faults,
  });
  running.push(sandbox);
  const env = { HOME: freshHome(), PETSTORE_BASE_URL: sandbox.apiBaseUrl, PETSTORE_API_KEY: KEY };
  /** Every pet it holds, in the order of their ids (the order they were created). */
  const pets = async () => {
    const all: { id: number; name: string; categoryId: number }[] = [];
    let url: string | undefined = `${sandbox.apiBaseUrl}/pets?limit=100`;
    for (let page = 0; url !== undefined && page < 1000; page++) {
      const response: Response = await fetch(url, { headers: { authorization: `Bearer ${KEY}` } });
      all.push(...((await response.json()) as typeof all));
      const next = /<([^>]+)>;\s*rel="next"/.exec(response.headers.get('link') ?? '')?.[1];
      url = next === undefined ? undefined : new URL(next, url).href;
    }
    return all;
  };
  return {
    env,
    key: KEY,
    url: sandbox.apiBaseUrl,
    served,
    arrived,
    pets,
    names: async () => (await pets()).map((pet) => pet.name),
  };
}
