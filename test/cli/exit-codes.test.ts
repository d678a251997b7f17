import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../src/main.js';
import { UsageError } from '../../src/core/errors.js';
import { reportError } from '../../src/output/report-error.js';
import { fakeIO } from '../helpers/fake-io.js';
import { freshHome } from '../helpers/run-cli.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const servers: TestServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

/** A service that takes every request and never answers. */
async function silentService() {
  const server = await startTestServer(() => undefined);
  servers.push(server);
  return server;
}

describe('each class of failure has its own exit code, never the bug message', () => {
  it.each([
    ['a line break', 'sk_live_abc\ndef'],
    ['a non-ASCII character', 'sk_live_abcé'],
    ['white space', 'sk_live abc'],
  ])('a key holding %s: exit 3, nothing sent, the key not shown', async (kind, key) => {
    const server = await silentService();
    const io = fakeIO();
    const env = { HOME: freshHome(), PETSTORE_BASE_URL: `${server.url}/v1`, PETSTORE_API_KEY: key };
    expect(await main(['pets', 'list'], io, env)).toBe(3);
    const error = JSON.parse(io.err()) as { message: string; hint: string };
    expect(error.message).toBe(
      `PETSTORE_API_KEY cannot be used: it holds ${kind} at character ${key.search(/[^\x21-\x7e]/) + 1}, which cannot be sent in an HTTP header`,
    );
    expect(io.err()).not.toContain('abc');
    expect(server.requests).toHaveLength(0);
  });

  it.each([
    [['pets', 'list', '-o', 'xml'], {}, '--output must be one of'],
    [['--json', '-o', 'csv', 'pets', 'list'], {}, '--json conflicts with --output csv'],
    [['pets', 'list'], { PETSTORE_OUTPUT: 'yaml' }, 'PETSTORE_OUTPUT must be one of'],
  ])(
    'an output format it cannot use, %j: exit 2, the error as JSON for a pipe',
    async (args, extra, message) => {
      const io = fakeIO();
      expect(await main(args, io, { HOME: freshHome(), ...extra })).toBe(2);
      expect((JSON.parse(io.err()) as { message: string }).message).toContain(message);
      const terminal = fakeIO({ tty: true });
      expect(await main(args, terminal, { HOME: freshHome(), ...extra })).toBe(2);
      // stderr a terminal: text, whatever the output format (a person reads it).
      expect(terminal.err().startsWith('petstore: ')).toBe(true);
    },
  );

  it.each([
    [['pets', 'list', '--limit', '0'], 'pets list'],
    [['pets', 'list', '--status', 'lost'], 'pets list'],
    [['pets', 'import', '-', '--concurrency', '17'], 'pets import'],
    [['smoke', '--repeat', 'x'], 'smoke'],
  ])(
    'a flag value it cannot use, %j: exit 2 with a hint naming the command’s help',
    async (args, verb) => {
      const io = fakeIO();
      expect(await main(args, io, { HOME: freshHome() })).toBe(2);
      expect((JSON.parse(io.err()) as { hint: string }).hint).toBe(`Run: petstore ${verb} --help`);
    },
  );

  it('a POST that timed out after sending: exit 7, the outcome is unknown, how to check', async () => {
    const server = await silentService();
    const io = fakeIO({ tty: true });
    const env = {
      HOME: freshHome(),
      PETSTORE_BASE_URL: `${server.url}/v1`,
      PETSTORE_API_KEY: 'sk_test_k1_key',
    };
    const args = ['pets', 'add', '--name', 'Rex', '--category-id', '1', '--timeout', '0.3'];
    expect(await main(args, io, env)).toBe(7);
    expect(io.err()).toContain('the outcome is unknown, the pet may or may not have been created');
    expect(server.requests).toHaveLength(1);
    const key = server.requests[0]!.headers['idempotency-key'] as string;
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    expect(io.err()).toContain(`(Idempotency-Key ${key})`);
    expect(io.err()).toContain(
      `hint: To send it again safely, run the same command with --idempotency-key ${key}`,
    );
    expect(io.err()).not.toContain('bug');
  });

  it('a config folder the system refuses ends with exit 2, not a hang', async () => {
    // Node's recursive mkdir loops for ever under /proc; petstore must not.
    const io = fakeIO({ stdin: 'sk_test_1\n' });
    const env = { HOME: freshHome(), PETSTORE_CONFIG_DIR: '/proc/petstore-test/cfg' };
    const args = ['auth', 'login', '--profile', 'staging', '--no-verify'];
    expect(await main(args, io, env)).toBe(2);
    expect(io.err()).toContain('/proc/petstore-test');
    expect(io.err()).not.toContain('bug');
  });

  it('a corrupt sandbox database: a hint the command can follow (it has no --db)', async () => {
    const home = freshHome();
    mkdirSync(join(home, 'data', 'petstore'), { recursive: true });
    const file = join(home, 'data', 'petstore', 'sandbox.db');
    writeFileSync(file, 'not a database, just text '.repeat(100));
    const io = fakeIO({ tty: true });
    expect(
      await main(['pets', 'list'], io, { HOME: home, XDG_DATA_HOME: join(home, 'data') }),
    ).toBe(2);
    expect(io.err()).toContain(`cannot open the sandbox database ${file}`);
    expect(io.err()).toContain(
      `hint: The sandbox profile keeps its pets there. Move the file away (mv ${file} ${file}.bad)`,
    );
    expect(io.err()).not.toContain('--db');
  });

  it('any error the operating system raises is the machine state (exit 2), not a bug', () => {
    const error = Object.assign(new Error('ENOSPC: no space left on device, write'), {
      code: 'ENOSPC',
      syscall: 'write',
      path: '/tmp/x',
    });
    const written: string[] = [];
    const code = reportError(error, { json: false, verbose: false, write: (t) => written.push(t) });
    expect(code).toBe(2);
    expect(written.join('')).toBe(
      'petstore: cannot write /tmp/x: ENOSPC\nhint: Check that the path exists and that you may use it.\n',
    );
  });
});

describe('an error at a narrow terminal', () => {
  it('is broken at spaces to its width, each part under its own start; whole without one', () => {
    const hint = 'To create them again as new pets, on purpose, run it with --again.';
    const error = new UsageError(
      'pets.csv was imported in full before: batch 2f6c1c0e created its 3 records in profile staging on 2026-12-07 23:13 UTC; nothing was sent',
      { hint },
    );
    const written: string[] = [];
    const write = (text: string) => written.push(text);
    reportError(error, { json: false, verbose: false, width: 40, write });
    const lines = written.join('').trimEnd().split('\n');
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(40);
    expect(lines[0]).toMatch(/^petstore: pets\.csv/);
    const hintAt = lines.findIndex((line) => line.startsWith('hint: '));
    expect(lines.slice(1, hintAt).every((line) => line.startsWith('  '))).toBe(true);
    expect(lines.slice(hintAt + 1).every((line) => line.startsWith('      '))).toBe(true);
    // The words are all there, in order.
    const words = (text: string) => text.split(/\s+/).filter(Boolean);
    expect(words(lines.join(' '))).toEqual(words(`petstore: ${error.message} hint: ${hint}`));
    const whole: string[] = [];
    reportError(error, { json: false, verbose: false, write: (text) => whole.push(text) });
    expect(whole.join('').split('\n')).toHaveLength(3);
  });
});

describe('a service that asks to be left alone for longer than the run may wait', () => {
  /** Answers every request 429 with Retry-After: 60. */
  async function busyService() {
    const server = await startTestServer((_request, res) => {
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '60' });
      res.end('{"code":"rate_limited","message":"slow down","status":429}');
    });
    servers.push(server);
    return server;
  }

  it.each([
    [['--max-wait', '1s'], {}],
    [[], { PETSTORE_MAX_WAIT: '1s' }],
    // The default is 30 s: 60 is past it too.
    [[], {}],
  ])('%j %j: exit 75 at once, saying when to try again', async (flags, extra) => {
    const server = await busyService();
    const env = {
      HOME: freshHome(),
      PETSTORE_BASE_URL: `${server.url}/v1`,
      PETSTORE_API_KEY: 'sk_test_busy_service',
      ...extra,
    };
    const io = fakeIO({ tty: true });
    const started = Date.now();
    expect(await main([...flags, 'pets', 'list'], io, env)).toBe(75);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(io.err()).toMatch(/left alone for 60 s .* try again after \d{4}-\d\d-\d\dT[\d:]+Z/s);
    expect(io.err()).toContain('--max-wait 60s');
    expect(server.requests).toHaveLength(1);
  });

  it('--max-wait that is no duration is a usage error', async () => {
    const io = fakeIO();
    expect(await main(['--max-wait', 'soon', 'pets', 'list'], io, { HOME: freshHome() })).toBe(2);
    expect(io.err()).toContain('--max-wait must be a duration from 0s to 1h');
  });
});
