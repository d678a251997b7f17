import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshHome, runCli } from '../helpers/run-cli.js';
import { serveSandbox, type ServedSandbox } from '../helpers/serve-sandbox.js';
import { sendJson, startTestServer, type TestServer } from '../helpers/test-server.js';

/**
 * What the last net over output promises, from outside: the key the run knows, whole or in a
 * transport encoding, never leaves; ordinary data that merely shares words with it prints as
 * it was typed (decision 0012).
 */

describe('with the sandbox’s own key, sandbox-key', () => {
  let sandbox: ServedSandbox;
  const home = freshHome();
  let env: Record<string, string>;

  beforeAll(async () => {
    sandbox = await serveSandbox([]);
    env = { HOME: home, PETSTORE_BASE_URL: sandbox.apiBaseUrl, PETSTORE_API_KEY: 'sandbox-key' };
    for (const name of ['sandbox-demo', 'My sandbox-kit', 'sandbox-key']) {
      const added = await runCli(['pets', 'add', '--name', name, '--category-id', '1'], { env });
      expect(added.code, added.stderr).toBe(0);
    }
  });
  afterAll(() => sandbox.stop());

  it.each([['json'], ['csv'], ['table'], ['ndjson']])(
    'names that share words with it print as typed, in %s; the key itself masked',
    async (format) => {
      const listed = await runCli(['pets', 'list', '-o', format], { env });
      expect(listed.code, listed.stderr).toBe(0);
      expect(listed.stdout).toContain('sandbox-demo');
      expect(listed.stdout).toContain('My sandbox-kit');
      expect(listed.stdout).not.toContain('sandbox-key');
      expect(listed.stdout).toContain('****');
    },
  );

  it('the history keeps the names as sent, the key among them masked', async () => {
    const history = await runCli(['history', '--json'], { env });
    expect(history.code, history.stderr).toBe(0);
    expect(history.stdout).toContain('sandbox-demo');
    expect(history.stdout).toContain('My sandbox-kit');
    expect(history.stdout).not.toContain('sandbox-key');
  });
});

describe('a random key echoed in part or encoded', () => {
  const key = randomBytes(24).toString('base64url'); // 32 characters
  const slice = key.slice(8, 24);
  const echoes = {
    slice: `tag ${slice} end`,
    hexLower: Buffer.from(key).toString('hex'),
    hexUpper: Buffer.from(key).toString('hex').toUpperCase(),
    base64: Buffer.from(key).toString('base64'),
  };
  let server: TestServer;
  const home = freshHome();
  let env: Record<string, string>;

  beforeAll(async () => {
    // A service that echoes the key: in the pets it lists and creates, and in a request id.
    server = await startTestServer((request, response) => {
      const pets = Object.values(echoes).map((name, index) => ({
        id: index + 1,
        name,
        categoryId: 1,
      }));
      const headers = { 'x-request-id': echoes.hexLower };
      if (request.method === 'POST') {
        sendJson(
          response,
          201,
          JSON.stringify({ id: 9, name: echoes.base64, categoryId: 1 }),
          headers,
        );
      } else sendJson(response, 200, JSON.stringify(pets), headers);
    });
    env = { HOME: home, PETSTORE_BASE_URL: `${server.url}/v1`, PETSTORE_API_KEY: key };
  });
  afterAll(() => server.close());

  const shown = (text: string) =>
    [key, slice, echoes.hexLower, echoes.hexUpper, echoes.base64].filter((secret) =>
      text.includes(secret),
    );

  it.each([['json'], ['csv'], ['table']])('none of them reach stdout in %s', async (format) => {
    const listed = await runCli(['pets', 'list', '-o', format], { env });
    expect(listed.code, listed.stderr).toBe(0);
    expect(shown(listed.stdout)).toEqual([]);
    // What is around them is the service's, and stays.
    expect(listed.stdout).toContain('tag ');
  });

  it('none of them reach the verbose log, nor the history of a write', async () => {
    const added = await runCli(['-v', 'pets', 'add', '--name', 'Rex', '--category-id', '1'], {
      env,
    });
    expect(added.code, added.stderr).toBe(0);
    expect(added.stderr).toContain('x-request-id');
    expect(shown(added.stdout + added.stderr)).toEqual([]);
    const history = await runCli(['history', '--json'], { env });
    expect(history.code, history.stderr).toBe(0);
    expect(history.stdout).toContain('Rex');
    expect(shown(history.stdout)).toEqual([]);
  });
});
