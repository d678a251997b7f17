import { readFileSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshHome, runCli } from '../helpers/run-cli.js';
import { sendJson, startTestServer, type TestServer } from '../helpers/test-server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer((req, res) => {
    if (req.headers.authorization !== 'Bearer sk_test_k123') {
      sendJson(res, 401, '{"code":"unauthorized","message":"API key invalid","status":401}');
      return;
    }
    sendJson(res, 200, '[{"id":1,"name":"Rex","categoryId":1}]');
  });
});
afterAll(() => server.close());

describe('profiles and credentials, end to end', () => {
  it('stores a key from stdin, masks it, and uses it through the active profile', async () => {
    const home = freshHome();
    const env = { HOME: home };
    const login = await runCli(['auth', 'login', '--profile', 'staging', '--no-verify'], {
      env,
      input: 'sk_test_k123\n',
    });
    expect(login.code).toBe(0);
    const file = join(home, '.config', 'petstore', 'config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(home, '.config', 'petstore')).mode & 0o777).toBe(0o700);

    const status = await runCli(['auth', 'status', '--json'], { env });
    expect(status.stdout).toContain('"key":"****k123"');
    const overridden = await runCli(['auth', 'status'], {
      env: { ...env, PETSTORE_API_KEY: 'sk_test_x_key' },
    });
    expect(overridden.stderr).toContain('PETSTORE_API_KEY is set: it overrides the stored key');

    expect(
      (await runCli(['profile', 'set', 'staging', '--base-url', `${server.url}/v1`], { env })).code,
    ).toBe(0);
    expect((await runCli(['profile', 'use', 'staging'], { env })).code).toBe(0);
    const list = await runCli(['pets', 'list'], { env });
    expect(list).toMatchObject({ code: 0, stdout: '[{"id":1,"name":"Rex","categoryId":1}]\n' });
    expect(server.requests.at(-1)!.headers.authorization).toBe('Bearer sk_test_k123');
  });

  it('leaves a broken config file byte for byte, with a clear error', async () => {
    const home = freshHome();
    const dir = join(home, 'cfg');
    mkdirSync(dir, { mode: 0o700 });
    writeFileSync(join(dir, 'config.json'), '{broken');
    const env = { HOME: home, PETSTORE_CONFIG_DIR: dir };
    for (const args of [
      ['pets', 'list'],
      ['profile', 'use', 'staging'],
      ['auth', 'status'],
    ]) {
      const result = await runCli([...args, '-o', 'table'], { env, input: 'k\n' });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(
        `petstore: config file ${join(dir, 'config.json')} is not valid JSON`,
      );
      expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe('{broken');
    }
  });

  it('keeps every update when many processes change profiles at once', async () => {
    const home = freshHome();
    const env = { HOME: home };
    const names = Array.from({ length: 16 }, (_, i) => `p${String(i).padStart(2, '0')}`);
    const results = await Promise.all(
      names.map((name) =>
        runCli(['profile', 'set', name, '--base-url', `https://${name}.example.test/v1`], { env }),
      ),
    );
    expect(results.map((result) => result.code)).toEqual(names.map(() => 0));
    const saved = JSON.parse(
      readFileSync(join(home, '.config', 'petstore', 'config.json'), 'utf8'),
    ) as {
      profiles: Record<string, { baseUrl: string }>;
    };
    expect(Object.keys(saved.profiles).sort()).toEqual(names);
  });
});
