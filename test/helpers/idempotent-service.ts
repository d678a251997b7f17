import { sendJson, startTestServer, type TestServer } from './test-server.js';

/**
 * A stand-in of the service that honours Idempotency-Key as the sandbox does (a key sent
 * again gets the first answer, marked Idempotent-Replayed), for what the sandbox's fault flags
 * cannot do: refuse names starting "bad" only while told to (a refusal stores nothing, as at
 * Stripe), create a named pet and then drop the connection (the unknown outcome) or answer 500.
 * The names it created, in order, are in `created`. The caller stops the server.
 */
export async function startIdempotentService(
  options: {
    refusesBad?: () => boolean;
    dropNames?: Set<string>;
    failNames?: Set<string>;
    /** The service's clock (ms since the epoch), sent as each answer's Date header. */
    clock?: () => number;
    /** Refuses the pet (400) before it looks its key up: a service that does (or a fault). */
    refusesBeforeKeys?: (name: string) => boolean;
  } = {},
): Promise<{ server: TestServer; created: string[] }> {
  let nextId = 1;
  const byKey = new Map<string, string>();
  const created: string[] = [];
  const refusesBad = options.refusesBad ?? (() => true);
  const server = await startTestServer((req, res) => {
    if (options.clock) res.setHeader('date', new Date(options.clock()).toUTCString());
    if (req.method === 'GET') {
      sendJson(res, 200, '[]');
      return;
    }
    const pet = JSON.parse(req.body) as { name: string };
    const key = String(req.headers['idempotency-key']);
    if (options.refusesBeforeKeys?.(pet.name)) {
      sendJson(res, 400, '{"code":"invalid","message":"refused before its key","status":400}');
      return;
    }
    const replay = byKey.get(key);
    if (replay) {
      sendJson(res, 201, replay, { 'idempotent-replayed': 'true' });
      return;
    }
    if (refusesBad() && pet.name.startsWith('bad')) {
      sendJson(res, 400, '{"code":"invalid_name","message":"bad name","status":400}');
      return;
    }
    const body = JSON.stringify({ id: nextId++, ...pet });
    byKey.set(key, body);
    created.push(pet.name);
    if (options.dropNames?.delete(pet.name)) res.socket?.destroy();
    // Created, then a failure of its own: the outcome a 5xx leaves the client with.
    else if (options.failNames?.delete(pet.name)) {
      sendJson(res, 500, '{"code":"internal","message":"boom","status":500}');
    } else sendJson(res, 201, body);
  });
  return { server, created };
}
