import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { UndiciTransport } from '../../src/api/transport.js';

/** A server that answers /fast at once and /slow never, and tells when a connection closes. */
async function connectionServer() {
  const sockets = new Set<Socket>();
  const closed: Promise<void>[] = [];
  const server: Server = createServer((req, res) => {
    if (req.url === '/slow') return;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('[]');
  });
  server.keepAliveTimeout = 60_000;
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    closed.push(new Promise((resolve) => socket.on('close', () => resolve())));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path: string) => new URL(`http://127.0.0.1:${port}${path}`),
    open: () => [...sockets].filter((socket) => !socket.destroyed).length,
    /** Resolves once every connection made so far has closed. */
    allClosed: () => Promise.all(closed),
    /** Resolves once the connection made last has closed. */
    lastClosed: () => closed.at(-1),
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let stop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stop?.();
  stop = undefined;
});

const get = (url: URL) => ({ method: 'GET' as const, url, headers: {} });

describe('UndiciTransport.close', () => {
  it('ends its connections, unless the process ends next and none has a request in flight', async () => {
    const server = await connectionServer();
    stop = server.stop;

    const closing = new UndiciTransport(5);
    expect((await closing.send(get(server.url('/fast')))).status).toBe(200);
    expect(server.open()).toBe(1);
    await closing.close();
    await server.allClosed();
    expect(server.open()).toBe(0);

    const leaving = new UndiciTransport(5, undefined, {}, true);
    expect((await leaving.send(get(server.url('/fast')))).status).toBe(200);
    await leaving.close();
    // Left for the exit: idle, and undici keeps it from holding the process alive. A connection
    // opened and closed after it: by its end, the server has seen any close of the one before.
    const probe = new UndiciTransport(5);
    expect((await probe.send(get(server.url('/fast')))).status).toBe(200);
    await probe.close();
    await server.lastClosed();
    expect(server.open()).toBe(1);
  });

  it('ends a connection with a request in flight even when the process ends next', async () => {
    const server = await connectionServer();
    stop = server.stop;
    const transport = new UndiciTransport(5, undefined, {}, true);
    const sent = transport.send(get(server.url('/slow')));
    sent.catch(() => undefined);
    await new Promise<void>((resolve) => {
      const poll = () => (server.open() === 1 ? resolve() : setTimeout(poll, 5));
      poll();
    });
    await transport.close();
    await server.allClosed();
    expect(server.open()).toBe(0);
    await expect(sent).rejects.toThrow();
  });
});
