import { afterEach, describe, expect, it } from 'vitest';
import { freshHome, runCli } from '../helpers/run-cli.js';
import { sendJson, startTestServer, type TestServer } from '../helpers/test-server.js';

const servers: TestServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

describe('petstore api, end to end', () => {
  it('GET /store/orders from a service that has it, with the profile key and nothing on argv', async () => {
    const server = await startTestServer((req, res) => {
      if (
        req.url === '/v1/store/orders' &&
        req.headers.authorization === 'Bearer sk_test_orders_key'
      ) {
        sendJson(res, 200, '[{"id":9007199254740993,"pet":1,"state":"placed"}]');
      } else sendJson(res, 404, '{"code":"not_found","message":"no","status":404}');
    });
    servers.push(server);
    const result = await runCli(['api', '/store/orders'], {
      env: { PETSTORE_BASE_URL: `${server.url}/v1`, PETSTORE_API_KEY: 'sk_test_orders_key' },
    });
    expect(result).toMatchObject({
      code: 0,
      stdout: '[{"id":9007199254740993,"pet":1,"state":"placed"}]\n',
    });
  });

  it('POST /pets with an int64 category on the sandbox profile; a dry run shows no key', async () => {
    const env = { HOME: freshHome() };
    const args = [
      'api',
      '-X',
      'POST',
      '/pets',
      '-F',
      'name=Rex',
      '-F',
      'categoryId=9223372036854775807',
    ];
    const dry = await runCli([...args, '--dry-run', '-q'], { env });
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('"authorization":"Bearer ****"');
    const created = await runCli([...args, '-q'], { env });
    expect(created).toMatchObject({
      code: 0,
      stdout: '{"id":1,"name":"Rex","categoryId":9223372036854775807}\n',
    });
    const listed = await runCli(['pets', 'list', '--json', '-q'], { env });
    expect(listed.stdout).toBe('[{"id":1,"name":"Rex","categoryId":9223372036854775807}]\n');
  });
});
