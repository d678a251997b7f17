import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshHome, runCli } from '../helpers/run-cli.js';
import { sendJson, startTestServer, type TestServer } from '../helpers/test-server.js';

describe('the key never leaves in any text', () => {
  const ENV_KEY = 'sk_live_ECHOED_env_4321';
  const STORED_KEY = 'sk_live_ECHOED_stored_8765';
  let server: TestServer;

  beforeAll(async () => {
    // A hostile service: it repeats whatever key it got, in error bodies and in a header.
    server = await startTestServer((req, res) => {
      const key = (req.headers.authorization ?? '').replace(/^Bearer /, '');
      const echo = { 'x-seen-key': key };
      // Only the stored key passes the check auth login makes; every other request fails.
      if (req.url === '/v1/pets?limit=7') {
        // Upper-cased, at the end of a page long enough to be cut to an excerpt.
        res.writeHead(502, { 'content-type': 'text/html', ...echo });
        res.end(`<html>${'x'.repeat(100)}${key.toUpperCase()}</html>`);
      } else if (req.url === '/v1/pets?limit=1' && key === STORED_KEY) {
        sendJson(res, 200, '[]', echo);
      } else {
        // To a write, the key spelled with \u escapes: JSON text that does not show it, a
        // message (and so the journal's record of the error) that does.
        const spelled = Array.from(
          key,
          (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
        );
        const shown = req.method === 'POST' ? spelled.join('') : key;
        const body = `{"code":"invalid_key","message":"API key ${shown} is invalid","status":401}`;
        sendJson(res, 401, body, echo);
      }
    });
  });
  afterAll(() => server.close());

  it.each([
    ['an error, human form', ['pets', 'list', '-o', 'table']],
    ['an error, JSON form', ['pets', 'list', '--json']],
    ['verbose lines', ['-v', 'pets', 'list']],
    ['smoke details', ['smoke', '--allow-writes', '--json']],
    ['a bulk run', ['pets', 'import', '-']],
  ])('masks the environment key in %s', async (_where, args) => {
    const result = await runCli(args, {
      env: { PETSTORE_BASE_URL: `${server.url}/v1`, PETSTORE_API_KEY: ENV_KEY },
      input: '{"name":"A","categoryId":1}\n',
    });
    expect(result.code).not.toBe(0);
    const all = result.stdout + result.stderr;
    expect(all).toContain('****4321');
    expect(all).not.toContain(ENV_KEY);
  });

  it('masks the key however the service changed it, and before any excerpt is cut', async () => {
    const result = await runCli(['pets', 'list', '--limit', '7', '--retries', '0'], {
      env: { PETSTORE_BASE_URL: `${server.url}/v1`, PETSTORE_API_KEY: ENV_KEY },
    });
    expect(result.code).toBe(6);
    expect(result.stderr).toContain('HTTP 502');
    expect(result.stdout + result.stderr).not.toMatch(/sk_live_echo/i);
  });

  it('masks the key in the journal a bulk run writes to a file', async () => {
    const journal = join(freshHome(), 'run.journal');
    const result = await runCli(['pets', 'import', '-', '--journal', journal], {
      env: { PETSTORE_BASE_URL: `${server.url}/v1`, PETSTORE_API_KEY: ENV_KEY },
      input: '{"name":"A","categoryId":1}\n',
    });
    expect(result.code).toBe(3);
    const text = readFileSync(journal, 'utf8');
    expect(text).toContain('****4321');
    expect(text).not.toContain(ENV_KEY);
  });

  it('masks the key in the JUnit report smoke writes to a file', async () => {
    const report = join(freshHome(), 'smoke.xml');
    const result = await runCli(['smoke', '--junit', report], {
      env: { PETSTORE_BASE_URL: `${server.url}/v1`, PETSTORE_API_KEY: ENV_KEY },
    });
    // The service refuses the key (401, echoing it): the key's failure, exit 3.
    expect(result.code).toBe(3);
    const xml = readFileSync(report, 'utf8');
    expect(xml).toContain('****4321');
    expect(xml).not.toContain(ENV_KEY);
  });

  it('masks a stored key, and one typed at auth login, whoever echoes them', async () => {
    const env = { HOME: freshHome() };
    const set = ['profile', 'set', 'qa', '--base-url', `${server.url}/v1`];
    expect((await runCli(set, { env })).code).toBe(0);
    const login = await runCli(['auth', 'login', '--profile', 'qa', '--no-verify'], {
      env,
      input: `${STORED_KEY}\n`,
    });
    expect(login.code).toBe(0);
    const listed = await runCli(['--profile', 'qa', '-v', 'pets', 'list'], { env });
    expect(listed.code).toBe(3);
    const refused = await runCli(['auth', 'login', '--profile', 'qa'], {
      env,
      input: 'sk_live_TYPED_but_refused_0000\n',
    });
    expect(refused.code).toBe(3);
    const all = [login, listed, refused].map((r) => r.stdout + r.stderr).join('\n');
    expect(all).toContain('****8765');
    expect(all).not.toContain(STORED_KEY);
    expect(all).not.toContain('sk_live_TYPED_but_refused_0000');
  });
});
