import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../../src/main.js';
import { startSandboxServer, type RunningSandbox } from '../../../src/sandbox/server.js';
import { fakeIO } from '../../helpers/fake-io.js';
import { freshHome } from '../../helpers/run-cli.js';
import { sendJson, startTestServer, type TestServer } from '../../helpers/test-server.js';

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

interface Row {
  target: string;
  baseUrl: string;
  name: string;
  outcome: string;
  detail: string;
}

async function smoke(baseUrl: string, args: string[], quickstartUrl?: string) {
  const io = fakeIO();
  const env: Record<string, string> = {
    HOME: freshHome(),
    PETSTORE_BASE_URL: baseUrl,
    PETSTORE_API_KEY: 'sk_test_good_key',
  };
  if (quickstartUrl) env.PETSTORE_QUICKSTART_URL = quickstartUrl;
  const code = await main(['smoke', ...args], io, env);
  return { code, rows: JSON.parse(io.out()) as Row[], err: io.err() };
}

describe('petstore smoke', () => {
  it('passes every check against a service that follows the interface', async () => {
    const sandbox: RunningSandbox = await startSandboxServer({
      host: '127.0.0.1',
      port: 0,
      database: ':memory:',
      apiKeys: ['sk_test_good_key'],
    });
    stops.push(sandbox.close);
    const junit = join(mkdtempSync(join(tmpdir(), 'smoke-')), 'smoke.xml');
    const result = await smoke(
      sandbox.apiBaseUrl,
      ['--allow-writes', '--junit', junit],
      sandbox.quickstartUrl,
    );
    expect(result.code).toBe(0);
    expect(result.rows.map((row) => row.outcome)).toEqual(Array(7).fill('pass'));
    // PETSTORE_BASE_URL chose the service: rows name it, not the default sandbox profile.
    expect(result.rows[0]).toMatchObject({
      target: sandbox.apiBaseUrl,
      baseUrl: sandbox.apiBaseUrl,
    });
    expect(result.err).toContain('smoke: 7 passed, 0 failed, 0 skipped');
    expect(result.err).toMatch(/The smoke run added pet\(s\) \d+\./);
    expect(readFileSync(junit, 'utf8')).toContain('tests="7" failures="0" skipped="0"');
  });

  it('checks the 400 with a body the interface forbids: no categoryId', async () => {
    const server = await startTestServer((req, res) => {
      if (req.method === 'POST' && req.url === '/v1/pets') {
        sendJson(
          res,
          400,
          '{"code":"invalid_pet","message":"categoryId is required","status":400}',
        );
      } else sendJson(res, 200, '[]');
    });
    stops.push(server.close);
    const result = await smoke(`${server.url}/v1`, ['--allow-writes']);
    const posts = server.requests.filter((request) => request.method === 'POST');
    expect(posts.map((request) => JSON.parse(request.body) as object)).toContainEqual({
      name: 'petstore-smoke-invalid',
    });
    const check = result.rows.find((row) => row.name.startsWith('reject a pet'));
    expect(check).toMatchObject({ outcome: 'pass', detail: '400 invalid_pet' });
  });

  it('only reads without --allow-writes', async () => {
    const server: TestServer = await startTestServer((req, res) => {
      if (req.headers.authorization !== 'Bearer sk_test_good_key') {
        sendJson(res, 401, '{"code":"unauthorized","message":"no","status":401}');
      } else {
        sendJson(res, 200, '[]');
      }
    });
    stops.push(server.close);
    const result = await smoke(`${server.url}/v1`, []);
    expect(result.code).toBe(0);
    expect(result.rows.filter((row) => row.outcome === 'skip')).toHaveLength(4);
    expect(server.requests.every((request) => request.method === 'GET')).toBe(true);
  });

  it('exits 8 and reports each failure, also in the JUnit file, when the service misbehaves', async () => {
    // Accepts any key, ignores the status filter.
    const server = await startTestServer((_req, res) => {
      sendJson(res, 200, '[{"id":1,"name":"a","categoryId":1,"status":"sold"}]');
    });
    stops.push(server.close);
    const junit = join(mkdtempSync(join(tmpdir(), 'smoke-')), 'smoke.xml');
    const result = await smoke(`${server.url}/v1`, ['--junit', junit]);
    expect(result.code).toBe(8);
    expect(result.rows.filter((row) => row.outcome === 'fail').map((row) => row.detail)).toEqual([
      '1 pet(s) with another status came back',
      'the service accepted a key it cannot know',
    ]);
    const report = readFileSync(junit, 'utf8');
    expect(report).toContain('failures="2"');
    expect(report).toContain('<failure message="the service accepted a key it cannot know"/>');
    expect(JSON.parse(result.err.trim().split('\n').at(-1)!)).toMatchObject({
      code: 'smoke_failed',
    });
  });
});
