import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { sendJson, startTestServer, type TestServer } from '../helpers/test-server.js';
import { stderrText } from '../helpers/stderr-text.js';

const KEY = 'sk_e2e_DO_NOT_LEAK_31337';
let server: TestServer;
let env: Record<string, string>;
let postsAnswered503 = 0;

beforeAll(async () => {
  server = await startTestServer((req, res) => {
    if (req.headers.authorization !== `Bearer ${KEY}`) {
      sendJson(res, 401, '{"code":"unauthorized","message":"API key invalid","status":401}');
      return;
    }
    if (req.method === 'GET' && req.url === '/v1/pets/9007199254740993') {
      res.setHeader('deprecation', 'true');
      res.setHeader('sunset', 'Thu, 05 Dec 2030 00:00:00 GMT');
      sendJson(res, 200, '{"id":9007199254740993,"name":"Big","categoryId":1}');
      return;
    }
    if (req.method === 'GET' && req.url.startsWith('/v1/pets/')) {
      sendJson(res, 404, '{"code":"not_found","message":"pet not found","status":404}');
      return;
    }
    if (req.method === 'POST' && req.url === '/v1/pets') {
      const body = req.body;
      if (body.includes('"name":"flaky"')) {
        postsAnswered503++;
        sendJson(res, 503, '{"code":"unavailable","message":"down","status":503}');
        return;
      }
      if (!body.includes('"name"')) {
        sendJson(res, 400, '{"code":"invalid","message":"name required","status":400}');
        return;
      }
      sendJson(res, 201, body.replace('{', '{"id":77,'));
      return;
    }
    if (req.method === 'POST' && req.url === '/qs/messages') {
      sendJson(
        res,
        200,
        '{"id":"m_1","message":"hi","status":"queued","createdAt":"2026-11-22T10:00:00Z"}',
      );
      return;
    }
    sendJson(res, 404, '{"code":"no_route","message":"no route","status":404}');
  });
  env = {
    PETSTORE_BASE_URL: `${server.url}/v1`,
    PETSTORE_QUICKSTART_URL: `${server.url}/qs`,
    PETSTORE_API_KEY: KEY,
  };
});
afterAll(() => server.close());

describe('built petstore: the four operations', () => {
  it('pets add sends --category-id 9223372036854775807 digit for digit', async () => {
    const result = await runCli(
      ['pets', 'add', '--name', 'Rex', '--category-id', '9223372036854775807', '--json'],
      { env },
    );
    expect(result.code).toBe(0);
    expect(server.requests.at(-1)!.body).toBe('{"name":"Rex","categoryId":9223372036854775807}');
    expect(result.stdout).toBe('{"id":77,"name":"Rex","categoryId":9223372036854775807}\n');
  });

  it('pets add answered 503 exits 6 after exactly one request', async () => {
    const result = await runCli(['pets', 'add', '--name', 'flaky', '--category-id', '1'], { env });
    expect(result.code).toBe(6);
    expect(postsAnswered503).toBe(1);
  });

  it('pets get prints a big id exactly and warns once about the deprecation', async () => {
    const result = await runCli(['pets', 'get', '9007199254740993', '--json'], { env });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('{"id":9007199254740993,"name":"Big","categoryId":1}\n');
    expect(stderrText(result.stderr).match(/^warning: .*deprecated.*2030-12-05/gm)).toHaveLength(1);
    // stderr a pipe, the output JSON: every line of it is a JSON object.
    for (const line of result.stderr.trimEnd().split('\n')) {
      expect(JSON.parse(line), line).toBeTypeOf('object');
    }
  });

  it('pets get of an unknown id exits 4', async () => {
    const result = await runCli(['pets', 'get', '12', '-o', 'table'], { env });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('petstore: pet not found (not_found, HTTP 404)');
  });

  it('message send reports a queued message as queued', async () => {
    const result = await runCli(['message', 'send', 'hi'], { env });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ id: 'm_1', status: 'queued' });
    expect(result.stderr).toContain('queued');
  });

  it('a wrong key exits 3 for every operation, and no output shows a key', async () => {
    const wrong = { ...env, PETSTORE_API_KEY: 'sk_wrong_key_000' };
    for (const args of [
      ['pets', 'list'],
      ['pets', 'add', '--name', 'a', '--category-id', '1'],
      ['pets', 'get', '1'],
      ['message', 'send', 'x'],
    ]) {
      const result = await runCli([...args, '-v'], { env: wrong });
      expect(result.code, args.join(' ')).toBe(3);
      expect(result.stdout + result.stderr).not.toContain('sk_wrong_key_000');
    }
  });

  it('the verbose log never contains the key', async () => {
    const result = await runCli(['pets', 'list', '-v'], { env });
    expect(result.stderr).toContain('authorization: Bearer ****');
    expect(result.stdout + result.stderr).not.toContain(KEY);
  });
});
