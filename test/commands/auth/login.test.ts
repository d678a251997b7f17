import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import nock from 'nock';
import { describe, expect, it } from 'vitest';
import { runAuthLogin } from '../../../src/commands/auth/login.js';
import { main } from '../../../src/main.js';
import { fakeIO } from '../../helpers/fake-io.js';
import { JSON_HEADERS, STAGING, STORED_KEY, useConfigHome } from '../../helpers/config-home.js';
import { useNockGuard } from '../../helpers/nock-guard.js';
import { optionsOf } from '../../helpers/run-f.js';
import { verbContext } from '../../helpers/verb-context.js';
import { waitUntil } from '../../helpers/wait-until.js';

useNockGuard();
const cli = useConfigHome();
const { run, login } = cli;

describe('auth login', () => {
  it('stores a key read from stdin in a 0600 file inside a 0700 folder', async () => {
    const result = await run(['auth', 'login', '--profile', 'staging', '--no-verify'], {
      stdin: 'sk_test_k123\nignored second line\n',
    });
    expect(result.code).toBe(0);
    expect(result.err).toContain('API key ****k123 stored (not verified) for profile staging');
    expect(statSync(cli.configFile).mode & 0o777).toBe(0o600);
    expect(statSync(join(cli.home, 'cfg')).mode & 0o777).toBe(0o700);
    const saved = JSON.parse(readFileSync(cli.configFile, 'utf8')) as {
      schemaVersion: number;
      profiles: Record<string, { apiKey?: string }>;
    };
    expect(saved.schemaVersion).toBe(1);
    expect(saved.profiles.staging?.apiKey).toBe('sk_test_k123');
  });

  it('verifies the key with GET /pets?limit=1 and stores nothing on 401', async () => {
    await run(['profile', 'set', 'staging', '--base-url', `${STAGING}/v1`]);
    nock(STAGING, { reqheaders: { authorization: 'Bearer bad-key' } })
      .get('/v1/pets')
      .query({ limit: '1' })
      .reply(401, { code: 'unauthorized', message: 'API key invalid', status: 401 }, JSON_HEADERS);
    const result = await run(['auth', 'login', '--profile', 'staging'], { stdin: 'bad-key\n' });
    expect(result.code).toBe(3);
    const saved = JSON.parse(readFileSync(cli.configFile, 'utf8')) as {
      profiles: Record<string, { apiKey?: string }>;
    };
    expect(saved.profiles.staging?.apiKey).toBeUndefined();
  });

  it('stores a verified key', async () => {
    await run(['profile', 'set', 'staging', '--base-url', `${STAGING}/v1`]);
    nock(STAGING, { reqheaders: { authorization: `Bearer ${STORED_KEY}` } })
      .get('/v1/pets')
      .query({ limit: '1' })
      .reply(200, '[]', JSON_HEADERS);
    const result = await run(['auth', 'login', '--profile', 'staging'], {
      stdin: `${STORED_KEY}\n`,
    });
    expect(result.code).toBe(0);
    expect(result.err).toContain('verified and stored');
  });

  it('reads the key hidden from a terminal', async () => {
    const stdin = Object.assign(new PassThrough(), {
      isTTY: true,
      rawModes: [] as boolean[],
      setRawMode(mode: boolean) {
        this.rawModes.push(mode);
      },
    });
    const io = { ...fakeIO({ tty: true }), stdin };
    const pending = main(['auth', 'login', '--profile', 'staging', '--no-verify'], io, cli.env);
    // Typed once the prompt is shown, as a person would.
    await waitUntil(() => io.err().includes('(input hidden)'), 'the prompt');
    stdin.write('abc\u007fd-typed\r');
    expect(await pending).toBe(0);
    expect(stdin.rawModes).toEqual([true, false]);
    expect(io.err()).toContain('API key for profile staging (input hidden): \n');
    expect(io.err()).not.toContain('abd-typed');
    expect(readFileSync(cli.configFile, 'utf8')).toContain('"apiKey": "abd-typed"');
  });

  it('says when it replaces a stored key, and refuses empty input and the sandbox', async () => {
    await login('staging', 'first-key-1111');
    const replaced = await run(['auth', 'login', '--profile', 'staging', '--no-verify'], {
      stdin: 'second-key-2222\n',
    });
    expect(replaced.err).toContain('It replaces the previous key ****1111.');
    expect(
      (await run(['auth', 'login', '--no-verify', '--profile', 'qa'], { stdin: '\n' })).code,
    ).toBe(2);
    expect(
      (await run(['auth', 'login', '--profile', 'staging', '--no-verify'], { stdin: '\n' })).code,
    ).toBe(2);
    const sandbox = await run(['auth', 'login', '--no-verify'], { stdin: 'x\n' });
    expect(sandbox.code).toBe(2);
    expect(sandbox.err).toContain('the sandbox profile needs no API key');
  });
});

describe('auth login: flags to options (runF)', () => {
  it.each([
    [['auth', 'login'], { verify: true, dryRun: false, insecureStorage: false, migrate: false }],
    [
      ['auth', 'login', '--no-verify'],
      { verify: false, dryRun: false, insecureStorage: false, migrate: false },
    ],
    [
      ['auth', 'login', '--insecure-storage', '--dry-run'],
      { verify: true, dryRun: true, insecureStorage: true, migrate: false },
    ],
  ])('%j', async (argv, options) => {
    expect(await optionsOf(argv)).toEqual(options);
  });
});

describe('runAuthLogin, run with typed options', () => {
  const options = { verify: false, dryRun: true, insecureStorage: true, migrate: false };

  it('a dry run reads the key from a pipe, shows the change with it masked, writes nothing', async () => {
    const key = 'sk_live_dry_run_login_4242';
    const { ctx, io } = verbContext({
      raw: { output: 'json', profile: 'staging' },
      env: { PETSTORE_API_KEY: undefined },
      stdin: `${key}\n`,
    });
    await runAuthLogin(ctx, options);
    expect(io.out()).toContain('"dryRun":true');
    expect(io.out()).toContain('4242');
    expect(io.out() + io.err()).not.toContain(key);
    expect(io.err()).toContain('Dry run: nothing was written.');
  });

  it('the sandbox profile needs no key, and is refused before any key is read', async () => {
    const { ctx } = verbContext({ raw: { profile: 'sandbox' }, stdin: 'sk_never_read\n' });
    await expect(runAuthLogin(ctx, options)).rejects.toThrow(
      'the sandbox profile needs no API key',
    );
  });
});
