import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../src/main.js';
import { fakeIO } from '../helpers/fake-io.js';
import { freshHome } from '../helpers/run-cli.js';

/**
 * A service that answers with what is not HTTP was reached, and broke the interface: exit 6,
 * not "cannot reach" (7), never retried; a write so answered has an unknown outcome.
 */

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

/** A TCP server that answers every request with `raw`, and counts the requests. */
async function rawServer(raw: string) {
  let requests = 0;
  const server = createServer((socket) => {
    socket.on('error', () => undefined);
    socket.once('data', () => {
      requests++;
      socket.end(raw);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1`, requests: () => requests };
}

const BODY = 'content-type: application/json\r\ncontent-length: 2\r\n\r\n[]';

/** Responses that break HTTP/1.1, each of a kind the parser refuses. */
const broken = fc.oneof(
  fc
    .integer({ min: 20_000, max: 200_000 })
    .map((size) => `HTTP/1.1 200 OK\r\nx-big: ${'a'.repeat(size)}\r\n${BODY}`),
  fc
    .tuple(
      fc.integer({ min: 0, max: 31 }).filter((code) => code !== 9),
      fc.string({ unit: 'grapheme-ascii', maxLength: 8 }),
    )
    .map(
      ([code, text]) => `HTTP/1.1 200 OK\r\nx-bad: ${text}${String.fromCharCode(code)}x\r\n${BODY}`,
    ),
  // The same bad header after Content-Length: undici then reports a length mismatch.
  fc
    .integer({ min: 0, max: 31 })
    .filter((code) => code !== 9)
    .map(
      (code) =>
        `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\nx-a: a${String.fromCharCode(code)}b\r\n\r\n[]`,
    ),
  fc.integer({ min: 1000, max: 99999 }).map((status) => `HTTP/1.1 ${status} OK\r\n${BODY}`),
  fc
    .integer({ min: 0, max: 99 })
    .map((status) => `HTTP/1.1 ${String(status).padStart(3, '0')} OK\r\n${BODY}`),
  fc.constantFrom(
    'SSH-2.0-OpenSSH_9.6\r\n',
    'NOT HTTP AT ALL\r\n\r\n',
    'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n',
    'HTTP/1.1 200 OK\r\ncontent-length: 2\r\ncontent-length: 3\r\n\r\n[]',
    'HTTP/1.1 200 OK\r\ncontent-length: 2\r\ntransfer-encoding: chunked\r\n\r\n2\r\n[]\r\n0\r\n\r\n',
    `HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\n${BODY}`,
    'HTTP/1.1 101 Switching Protocols\r\n\r\n',
    'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\nxyz',
    'HTTP/1.1 302 Found\r\nLocation: /v1/a\r\nLocation: /v1/b\r\ncontent-length: 0\r\n\r\n',
    `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-type: text/html\r\ncontent-length: 2\r\n\r\n[]`,
  ),
);

function env(url: string) {
  return { HOME: freshHome(), PETSTORE_BASE_URL: url, PETSTORE_API_KEY: 'sk_test_broken_http' };
}

describe('a response that is not HTTP', () => {
  it('to a read is exit 6, named so, and not retried', async () => {
    await fc.assert(
      fc.asyncProperty(broken, async (raw) => {
        const server = await rawServer(raw);
        const io = fakeIO();
        const code = await main(['pets', 'list', '--retries', '3'], io, env(server.url));
        expect(code, io.err()).toBe(6);
        expect(io.err()).toContain('is not valid HTTP');
        expect(server.requests()).toBe(1);
      }),
      { numRuns: 25 },
    );
  });

  it('to a write leaves its outcome unknown, with the key to send it again', async () => {
    await fc.assert(
      fc.asyncProperty(broken, async (raw) => {
        const server = await rawServer(raw);
        const io = fakeIO();
        const args = ['pets', 'add', '--name', 'Rex', '--category-id', '1'];
        const code = await main([...args, '--idempotency-key', 'k-broken-1'], io, env(server.url));
        expect(code, io.err()).toBe(6);
        const error = JSON.parse(io.err()) as { message: string; idempotencyKey?: string };
        expect(error.message).toContain('the outcome is unknown');
        expect(error.idempotencyKey).toBe('k-broken-1');
        expect(server.requests()).toBe(1);
      }),
      { numRuns: 15 },
    );
  });
});
