import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../src/main.js';
import { fakeIO, type FakeIO } from '../helpers/fake-io.js';
import { freshHome } from '../helpers/run-cli.js';
import { sendJson, startTestServer, type TestServer } from '../helpers/test-server.js';
import { waitUntil } from '../helpers/wait-until.js';
import { stderrText } from '../helpers/stderr-text.js';

const servers: TestServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

/** A service that holds each write until the test answers it. */
async function heldService() {
  const held: ServerResponse[] = [];
  const server = await startTestServer((_req, res) => held.push(res));
  servers.push(server);
  const env = {
    HOME: freshHome(),
    PETSTORE_BASE_URL: `${server.url}/v1`,
    PETSTORE_QUICKSTART_URL: `${server.url}/qs`,
    PETSTORE_API_KEY: 'k_intr_7Qz9wK',
  };
  return { server, held, env };
}

const until = (condition: () => boolean) => waitUntil(condition, 'the request to arrive');

describe('a single write interrupted by a signal never leaves its outcome unsaid', () => {
  it.each([
    [
      ['pets', 'add', '--name', 'Rex', '--category-id', '1'],
      '{"id":7,"name":"Rex","categoryId":1}',
      'pet 7 (Rex) was added',
    ],
    [
      ['message', 'send', 'hi'],
      '{"id":"m1","status":"sent","createdAt":"2026-11-23T00:00:00Z"}',
      'message m1 was sent',
    ],
  ])(
    '%j: the first signal waits for the answer, shows it, then exits 130',
    async (args, reply, done) => {
      const { held, env } = await heldService();
      const io: FakeIO = fakeIO();
      const running = main(args, io, env);
      await until(() => held.length === 1);
      io.signal('SIGINT');
      sendJson(held[0]!, 201, reply);
      expect(await running).toBe(130);
      expect(JSON.parse(io.out())).toEqual(JSON.parse(reply));
      const lines = stderrText(io.err()).trimEnd().split('\n');
      expect(lines[0]).toBe(
        'petstore: SIGINT: waiting for the request in flight to finish (send it again to stop at once)',
      );
      expect(JSON.parse(lines[1]!)).toMatchObject({
        code: 'interrupted',
        message: `SIGINT: ${done}; stopped`,
      });
    },
  );

  it('a second signal stops at once and says the outcome is unknown (SIGTERM: 143)', async () => {
    const { held, env } = await heldService();
    const io = fakeIO();
    const key = 'k-interrupted-add';
    const args = ['pets', 'add', '--name', 'Rex', '--category-id', '1', '--idempotency-key', key];
    const running = main(args, io, env);
    await until(() => held.length === 1);
    io.signal('SIGTERM');
    io.signal('SIGTERM');
    expect(await running).toBe(143);
    expect(io.out()).toBe('');
    expect(JSON.parse(io.err().trimEnd().split('\n')[1]!)).toEqual({
      code: 'interrupted',
      message: `stopped at once on a second SIGTERM: the outcome is unknown, the pet may or may not have been created (Idempotency-Key ${key})`,
      status: 0,
      hint: `To send it again safely, run the same command with --idempotency-key ${key}: a service that honours the key answers with what it did the first time instead of doing it twice. A service that ignores Idempotency-Key would create it twice: if unsure, check first with petstore pets list.`,
    });
    held[0]!.destroy();
  });
});
