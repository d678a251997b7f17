import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../../src/main.js';
import { startSandboxServer, type RunningSandbox } from '../../../src/sandbox/server.js';
import { fakeIO } from '../../helpers/fake-io.js';
import { freshHome } from '../../helpers/run-cli.js';

const KEY = 'sk_stopped_while_reading';
const running: RunningSandbox[] = [];
afterEach(async () => {
  vi.unstubAllEnvs();
  for (const sandbox of running.splice(0)) await sandbox.close();
});

describe('pets import stopped while it reads its input, before anything is sent', () => {
  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)(
    'on %s says so, exits %i, and leaves no draft journal or copy of stdin',
    async (signal, code) => {
      const sandbox = await startSandboxServer({
        host: '127.0.0.1',
        port: 0,
        database: ':memory:',
        apiKeys: [KEY],
      });
      running.push(sandbox);
      const home = freshHome();
      const scratch = mkdtempSync(join(tmpdir(), 'petstore-stop-'));
      vi.stubEnv('TMPDIR', scratch);
      const env = { HOME: home, PETSTORE_BASE_URL: sandbox.apiBaseUrl, PETSTORE_API_KEY: KEY };
      // Standard input that gives some records and then nothing, never ending: a writer still
      // at work, whom the signal did not reach.
      const stdin = new PassThrough();
      stdin.write('{"name":"Rex","categoryId":1}\n{"name":"Tom","categoryId":1}\n');
      const io = fakeIO();
      io.stdin = stdin;
      const run = main(['pets', 'import', '-'], io, env);
      // Stopped once its copy of standard input is begun: reading, nothing sent.
      await vi.waitUntil(() => readdirSync(scratch).length > 0, { timeout: 10_000 });
      io.signal(signal);
      expect(await run).toBe(code);
      expect(io.err()).toContain(
        `${signal}: stopped while reading standard input; nothing was sent, and no journal was made`,
      );
      const journals = join(home, '.local', 'state', 'petstore', 'journals');
      const left = existsSync(journals) ? readdirSync(journals) : [];
      expect(left.filter((name) => name !== '.inputs')).toEqual([]);
      expect(readdirSync(scratch)).toEqual([]);
      const listed = await fetch(`${sandbox.apiBaseUrl}/pets`, {
        headers: { authorization: `Bearer ${KEY}` },
      });
      expect(await listed.json()).toEqual([]);
    },
  );
});
