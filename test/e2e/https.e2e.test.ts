import type { IncomingMessage, ServerResponse } from 'node:http';
import { createSecureServer } from 'node:http2';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selfSignedCertificate, type Certificate } from '../helpers/certificate.js';
import { runCli } from '../helpers/run-cli.js';

// The built petstore over TLS, to a server that speaks HTTP/2 and one that speaks only
// HTTP/1.1. undici offers both (ALPN); the build loads its HTTP/2 client only when a
// connection negotiates it (scripts/lazy-undici.mjs), which is what this proves works.
let certificate: Certificate;
const servers: { close: (done: () => void) => unknown }[] = [];
const seen: { httpVersion: string; url: string; authorization: string | undefined }[] = [];

function answer(req: IncomingMessage, res: ServerResponse) {
  seen.push({
    httpVersion: req.httpVersion,
    url: req.url ?? '',
    authorization: req.headers.authorization,
  });
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end('[{"id":9223372036854775807,"name":"Rex","categoryId":1}]');
}

async function serve(http2: boolean): Promise<string> {
  const tls = { key: certificate.key, cert: certificate.cert };
  const server = http2
    ? createSecureServer({ ...tls, allowHTTP1: true }, (req, res) =>
        answer(req as unknown as IncomingMessage, res as unknown as ServerResponse),
      )
    : createHttpsServer(tls, answer);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `https://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

beforeAll(() => {
  certificate = selfSignedCertificate({ altNames: 'IP:127.0.0.1,DNS:animal-store.test' });
});

afterAll(async () => {
  await Promise.all(
    servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))),
  );
});

describe('pets list over HTTPS', () => {
  it.each([
    ['HTTP/2', true, '2.0'],
    ['HTTP/1.1 only', false, '1.1'],
  ])('to a server speaking %s', async (_, http2, httpVersion) => {
    const baseUrl = await serve(http2);
    const result = await runCli(['pets', 'list', '--json'], {
      env: {
        PETSTORE_BASE_URL: baseUrl,
        PETSTORE_API_KEY: 'sk_test_k_key',
        NODE_EXTRA_CA_CERTS: certificate.certFile,
      },
    });
    expect(result.stderr).toBe('');
    expect(result).toMatchObject({
      code: 0,
      stdout: '[{"id":9223372036854775807,"name":"Rex","categoryId":1}]\n',
    });
    expect(seen.at(-1)).toEqual({
      httpVersion,
      url: '/v1/pets',
      authorization: 'Bearer sk_test_k_key',
    });
  });
});

describe('through a proxy (HTTPS_PROXY)', () => {
  /** A proxy that tunnels every CONNECT to `port` on this machine, whatever host it names. */
  async function proxyTo(port: number) {
    const tunnels: string[] = [];
    const proxy = createHttpServer((_req, res) => res.writeHead(502).end());
    proxy.on('connect', (req: IncomingMessage, client: import('node:net').Socket) => {
      tunnels.push(req.url ?? '');
      const upstream = connect(port, '127.0.0.1', () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.pipe(client);
        client.pipe(upstream);
      });
      upstream.on('error', () => client.destroy());
      client.on('error', () => upstream.destroy());
    });
    servers.push(proxy);
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    return { url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`, tunnels };
  }

  it("reaches an https:// service through the proxy's CONNECT tunnel", async () => {
    const port = Number(new URL(await serve(false)).port);
    const proxy = await proxyTo(port);
    const result = await runCli(['pets', 'list', '--json'], {
      env: {
        PETSTORE_BASE_URL: 'https://animal-store.test/v1',
        PETSTORE_API_KEY: 'sk_test_k_key',
        NODE_EXTRA_CA_CERTS: certificate.certFile,
        HTTPS_PROXY: proxy.url,
      },
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(proxy.tunnels).toEqual(['animal-store.test:443']);
  });

  it('never sends a request for this machine (127.0.0.1, localhost) to the proxy', async () => {
    const baseUrl = await serve(false);
    // Nothing listens there: a request sent through it would fail.
    const result = await runCli(['pets', 'list', '--json'], {
      env: {
        PETSTORE_BASE_URL: baseUrl,
        PETSTORE_API_KEY: 'sk_test_k_key',
        NODE_EXTRA_CA_CERTS: certificate.certFile,
        HTTPS_PROXY: 'http://127.0.0.1:9',
        HTTP_PROXY: 'http://127.0.0.1:9',
      },
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });

  it('names the proxy when it cannot be reached', async () => {
    const result = await runCli(['pets', 'list', '--json', '--retries', '0'], {
      env: {
        PETSTORE_BASE_URL: 'https://animal-store.test/v1',
        PETSTORE_API_KEY: 'sk_test_k_key',
        HTTPS_PROXY: 'http://127.0.0.1:9',
      },
    });
    expect(result.code).toBe(7);
    expect(JSON.parse(result.stderr)).toMatchObject({
      message: expect.stringContaining('animal-store.test through the proxy') as unknown,
      hint: expect.stringContaining('NO_PROXY') as unknown,
    });
  });
});
