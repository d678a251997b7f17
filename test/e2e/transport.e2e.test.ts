import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { sendJson, startTestServer, type TestServer } from '../helpers/test-server.js';

const servers: TestServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

describe('transport, end to end', () => {
  it('retries GET /pets answered 503 twice, then prints the list', async () => {
    let calls = 0;
    const server = await startTestServer((_req, res) => {
      calls++;
      // Retry-After: 0 lets the spawned process retry at once (a real process has a real clock).
      const retryNow = { 'retry-after': '0' };
      if (calls <= 2)
        sendJson(res, 503, '{"code":"unavailable","message":"down","status":503}', retryNow);
      else sendJson(res, 200, '[{"id":1,"name":"Rex","categoryId":1}]');
    });
    servers.push(server);
    const result = await runCli(['pets', 'list'], {
      env: { PETSTORE_BASE_URL: `${server.url}/v1`, PETSTORE_API_KEY: 'sk_test_k_key' },
    });
    expect(result).toMatchObject({ code: 0, stdout: '[{"id":1,"name":"Rex","categoryId":1}]\n' });
    expect(calls).toBe(3);
  });

  it('sends requests through HTTP_PROXY, and not for hosts in NO_PROXY', async () => {
    const proxy = await startTestServer((_req, res) => sendJson(res, 200, '[]'));
    servers.push(proxy);
    // A name no resolver knows: only the proxy can answer for it.
    const env = {
      HTTP_PROXY: proxy.url,
      PETSTORE_BASE_URL: 'http://animal-store.test:8080/v1',
      PETSTORE_API_KEY: 'sk_test_k_key',
    };
    const args = ['pets', 'list', '--allow-insecure-http', '--retries', '0'];
    const proxied = await runCli(args, { env });
    expect(proxied.code).toBe(0);
    expect(proxy.requests.at(-1)!.url).toBe('http://animal-store.test:8080/v1/pets');

    const direct = await runCli(args, { env: { ...env, NO_PROXY: 'animal-store.test' } });
    expect(direct.code).toBe(7);
    expect(proxy.requests).toHaveLength(1);
  });

  it('never sends a request for this machine to HTTP_PROXY', async () => {
    const proxy = await startTestServer((_req, res) => sendJson(res, 502, '{}'));
    servers.push(proxy);
    const service = await startTestServer((_req, res) => sendJson(res, 200, '[]'));
    servers.push(service);
    const result = await runCli(['pets', 'list'], {
      env: {
        HTTP_PROXY: proxy.url,
        PETSTORE_BASE_URL: `${service.url}/v1`,
        PETSTORE_API_KEY: 'sk_test_k_key',
      },
    });
    expect(result.code).toBe(0);
    expect(proxy.requests).toHaveLength(0);
    expect(service.requests).toHaveLength(1);
  });
});

describe('a proxy that will not pass the request on', () => {
  /** A proxy answering every request, and every CONNECT, with 407; counting what it got. */
  async function refusingProxy() {
    let requests = 0;
    const server = createServer((_req, res) => {
      requests++;
      res.writeHead(407, { 'proxy-authenticate': 'Basic realm="corp"' }).end();
    });
    server.on('connect', (_req, socket: Duplex) => {
      requests++;
      socket.end(
        'HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="corp"\r\n\r\n',
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    servers.push({
      url: '',
      requests: [],
      close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    });
    return { url: `http://127.0.0.1:${port}`, requests: () => requests };
  }

  it.each(['http://', 'https://'])(
    'a %s request answered 407 names the proxy, its password masked, exit 7',
    async (scheme) => {
      const proxy = await refusingProxy();
      const proxyUrl = proxy.url.replace('http://', 'http://bob:Zq9%21secret@');
      const result = await runCli(['pets', 'list', '--allow-insecure-http', '--retries', '2'], {
        env: {
          HTTP_PROXY: proxyUrl,
          HTTPS_PROXY: proxyUrl,
          PETSTORE_BASE_URL: `${scheme}animal-store.test/v1`,
          PETSTORE_API_KEY: 'sk_test_k_key',
        },
      });
      expect(result.code).toBe(7);
      expect(result.stderr).toContain(`the proxy ${proxy.url.replace('http://', 'http://****@')}`);
      expect(result.stderr).toContain('asks for credentials (HTTP 407');
      expect(result.stderr).not.toContain('Zq9');
      // A refusal is not retried: the same request would meet it again.
      expect(proxy.requests()).toBe(1);
    },
  );

  it('a socks5:// proxy brings no warning about undici on the terminal', async () => {
    const result = await runCli(['pets', 'list', '--retries', '0'], {
      env: {
        HTTPS_PROXY: 'socks5://127.0.0.1:9',
        PETSTORE_BASE_URL: 'https://animal-store.test/v1',
        PETSTORE_API_KEY: 'sk_test_k_key',
      },
    });
    expect(result.code).toBe(7);
    expect(result.stderr).not.toContain('ExperimentalWarning');
    expect(result.stderr).toContain('through the proxy socks5://127.0.0.1:9');
  });
});
