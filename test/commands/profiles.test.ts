import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import nock from 'nock';
import { beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../src/main.js';
import { fakeIO } from '../helpers/fake-io.js';
import { freshHome } from '../helpers/run-cli.js';
import { useNockGuard } from '../helpers/nock-guard.js';

const STAGING = 'https://staging.petstore.test';
const STORED_KEY = 'sk_stored_SECRET_k123';
const ENV_KEY = 'sk_env_SECRET_zz99';
const JSON_HEADERS = { 'content-type': 'application/json' };

let home: string;
let env: Record<string, string>;
let configFile: string;

useNockGuard();
beforeEach(() => {
  home = freshHome();
  env = { HOME: home, PETSTORE_CONFIG_DIR: join(home, 'cfg') };
  configFile = join(home, 'cfg', 'config.json');
});

async function run(
  args: string[],
  options: { env?: Record<string, string>; stdin?: string; tty?: boolean } = {},
) {
  // Human-form errors by default, as on a terminal; tests ask for JSON with -o json.
  const io = fakeIO({ stdin: options.stdin, tty: options.tty ?? true });
  const code = await main(args, io, { ...env, ...options.env });
  return { code, out: io.out(), err: io.err() };
}

async function login(profile: string, key = STORED_KEY) {
  const result = await run(['auth', 'login', '--profile', profile, '--no-verify'], {
    stdin: `${key}\n`,
  });
  expect(result.code).toBe(0);
}

describe('auth login', () => {
  it('stores a key read from stdin in a 0600 file inside a 0700 folder', async () => {
    const result = await run(['auth', 'login', '--profile', 'staging', '--no-verify'], {
      stdin: 'k123\nignored second line\n',
    });
    expect(result.code).toBe(0);
    expect(result.err).toContain('API key ****k123 stored (not verified) for profile staging');
    expect(statSync(configFile).mode & 0o777).toBe(0o600);
    expect(statSync(join(home, 'cfg')).mode & 0o777).toBe(0o700);
    const saved = JSON.parse(readFileSync(configFile, 'utf8')) as {
      schemaVersion: number;
      profiles: Record<string, { apiKey?: string }>;
    };
    expect(saved.schemaVersion).toBe(1);
    expect(saved.profiles.staging?.apiKey).toBe('k123');
  });

  it('verifies the key with GET /pets?limit=1 and stores nothing on 401', async () => {
    await run(['profile', 'set', 'staging', '--base-url', `${STAGING}/v1`]);
    nock(STAGING, { reqheaders: { authorization: 'Bearer bad-key' } })
      .get('/v1/pets')
      .query({ limit: '1' })
      .reply(401, { code: 'unauthorized', message: 'API key invalid', status: 401 }, JSON_HEADERS);
    const result = await run(['auth', 'login', '--profile', 'staging'], { stdin: 'bad-key\n' });
    expect(result.code).toBe(3);
    const saved = JSON.parse(readFileSync(configFile, 'utf8')) as {
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
    const pending = main(['auth', 'login', '--profile', 'staging', '--no-verify'], io, env);
    setTimeout(() => stdin.write('abc\u007fd-typed\r'), 20);
    expect(await pending).toBe(0);
    expect(stdin.rawModes).toEqual([true, false]);
    expect(io.err()).toContain('API key for profile staging (input hidden): \n');
    expect(io.err()).not.toContain('abd-typed');
    expect(readFileSync(configFile, 'utf8')).toContain('"apiKey": "abd-typed"');
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

describe('auth status and logout', () => {
  it('shows the masked key and its source, and when the environment overrides it', async () => {
    await login('staging');
    const stored = await run(['auth', 'status', '-o', 'json']);
    const rows = JSON.parse(stored.out) as {
      name: string;
      key: string | null;
      keySource: string;
    }[];
    expect(rows.find((row) => row.name === 'staging')).toMatchObject({
      key: '****k123',
      keySource: 'config',
    });
    expect(rows.find((row) => row.name === 'production')).toMatchObject({
      key: null,
      keySource: 'none',
    });

    const overridden = await run(
      ['auth', 'status', '--profile', 'staging', '-o', 'table', '--no-color'],
      {
        env: { PETSTORE_API_KEY: ENV_KEY },
      },
    );
    expect(overridden.out).toContain('env PETSTORE_API_KEY');
    expect(overridden.out).toContain('****zz99');
    expect(overridden.err).toContain('PETSTORE_API_KEY is set: it overrides the stored key');
    expect(overridden.err).toContain('staging (****k123)');
    expect(overridden.out + overridden.err).not.toContain(ENV_KEY);
    expect(overridden.out + overridden.err).not.toContain(STORED_KEY);
  });

  it('logout removes only that profile’s key', async () => {
    await login('staging');
    await login('production', 'sk_prod_key_7777');
    const result = await run(['auth', 'logout', '--profile', 'staging']);
    expect(result.err).toContain('Removed the stored key ****k123 of profile staging.');
    const saved = readFileSync(configFile, 'utf8');
    expect(saved).not.toContain(STORED_KEY);
    expect(saved).toContain('sk_prod_key_7777');
  });
});

describe('profiles', () => {
  it('lists the built-ins with sandbox active on a fresh machine', async () => {
    const result = await run(['profile', 'list', '--json']);
    expect(result.code).toBe(0);
    const rows = JSON.parse(result.out) as { name: string; active: boolean }[];
    expect(rows.map((row) => [row.name, row.active])).toEqual([
      ['production', false],
      ['staging', false],
      ['sandbox', true],
    ]);
  });

  it('sets, uses, shows and removes a custom profile', async () => {
    expect((await run(['profile', 'set', 'qa', '--base-url', 'https://qa.test/v1'])).code).toBe(0);
    expect((await run(['profile', 'use', 'qa'])).code).toBe(0);
    const shown = JSON.parse((await run(['profile', 'show', '--json'])).out) as Record<
      string,
      unknown
    >;
    expect(shown).toMatchObject({
      name: 'qa',
      active: true,
      baseUrl: 'https://qa.test/v1',
      key: null,
    });

    const refused = await run(['profile', 'remove', 'qa'], { tty: false });
    expect(refused.code).toBe(2);
    expect(refused.err).toContain('Pass --yes');
    const declined = await run(['profile', 'remove', 'qa'], { stdin: 'n\n' });
    expect(declined.err).toContain('Remove profile qa? [y/N] Nothing removed.');
    await run(['auth', 'login', '--profile', 'qa', '--no-verify'], { stdin: 'sk_qa_1\n' });
    const confirmed = await run(['profile', 'remove', 'qa'], { stdin: 'yes\n' });
    expect(confirmed.err).toContain('Remove profile qa and its stored API key? [y/N]');
    expect(confirmed.err).toContain('Removed profile qa.');
    await run(['profile', 'set', 'qa', '--base-url', 'https://qa.test/v1']);
    await run(['profile', 'use', 'qa']);
    const removed = await run(['profile', 'remove', 'qa', '--yes'], { tty: false });
    expect(removed.code).toBe(0);
    expect(removed.err).toContain('The active profile is now sandbox.');
    const rows = JSON.parse((await run(['profile', 'list', '--json'])).out) as { name: string }[];
    expect(rows.map((row) => row.name)).not.toContain('qa');
  });

  it('says when profile set changes an existing URL, and warns about a path without /v1', async () => {
    await run(['profile', 'set', 'staging', '--base-url', 'https://a.test/v1']);
    const result = await run(['profile', 'set', 'staging', '--base-url', 'https://b.test/api']);
    expect(result.err).toContain('base URL changed from https://a.test/v1 to https://b.test/api');
    expect(result.err).toContain('does not end with /v1');
  });

  it.each([
    [['profile', 'remove', 'staging', '--yes'], /built in and cannot be removed/],
    [['profile', 'use', 'nope'], /no profile named "nope"/],
    [['profile', 'set', 'bad name!', '--base-url', 'https://x.test/v1'], /invalid profile name/],
    [['profile', 'set', 'qa', '--base-url', 'ftp://x.test/v1'], /must be an http or https URL/],
    [['profile', 'set', 'qa', '--base-url', 'not a url'], /not a valid URL/],
    [['profile', 'set', 'qa'], /needs --base-url/],
    [['profile', 'set', 'sandbox', '--base-url', 'https://x.test/v1'], /no URLs to set/],
    [['--profile', 'ghost', 'pets', 'list'], /no profile named "ghost"/],
  ])('rejects %j with exit 2', async (args, message) => {
    const result = await run(args);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(message);
  });

  it('explains how to set the URL of a built-in profile that has none', async () => {
    const result = await run(['--profile', 'production', 'pets', 'list'], {
      env: { PETSTORE_API_KEY: ENV_KEY },
    });
    expect(result.code).toBe(2);
    expect(result.err).toContain('profile "production" has no base URL');
    expect(result.err).toContain('petstore profile set production --base-url URL');
  });

  it('warns when a remote URL is plain http, but not for this machine', async () => {
    const remote = await run(['profile', 'set', 'qa', '--base-url', 'http://qa.test/v1']);
    expect(remote.err).toContain(
      '--base-url is plain http: commands will need --allow-insecure-http',
    );
    const local = await run(['profile', 'set', 'local', '--base-url', 'http://127.0.0.1:4010/v1']);
    expect(local.err).not.toContain('plain http');
  });

  it('fixes loose permissions on write, and says so', async () => {
    await run(['profile', 'set', 'qa', '--base-url', 'https://qa.test/v1']);
    chmodSync(configFile, 0o644);
    chmodSync(join(home, 'cfg'), 0o755);
    const result = await run(['profile', 'use', 'qa']);
    expect(result.code).toBe(0);
    expect(result.err).toMatch(/was open to others \(mode 755\); it is now 700/);
    expect(result.err).toMatch(/was readable by others \(mode 644\); it is now 600/);
    expect(statSync(configFile).mode & 0o777).toBe(0o600);
    expect(statSync(join(home, 'cfg')).mode & 0o777).toBe(0o700);
  });
});

describe('precedence: flag > environment > stored > default', () => {
  beforeEach(async () => {
    await run(['profile', 'set', 'staging', '--base-url', `${STAGING}/v1`]);
    await run(['profile', 'set', 'qa', '--base-url', 'https://qa.petstore.test/v1']);
    await login('staging');
    await login('qa', 'sk_qa_key_4444');
    await run(['profile', 'use', 'staging']);
  });

  function expectList(origin: string, key: string) {
    return nock(origin, { reqheaders: { authorization: `Bearer ${key}` } })
      .get('/v1/pets')
      .reply(200, '[]', JSON_HEADERS);
  }

  it('uses the active profile and its stored key', async () => {
    expectList(STAGING, STORED_KEY);
    expect((await run(['pets', 'list'])).code).toBe(0);
  });

  it('PETSTORE_PROFILE beats the active profile; --profile beats both', async () => {
    expectList('https://qa.petstore.test', 'sk_qa_key_4444');
    expect((await run(['pets', 'list'], { env: { PETSTORE_PROFILE: 'qa' } })).code).toBe(0);
    expectList(STAGING, STORED_KEY);
    expect(
      (await run(['--profile', 'staging', 'pets', 'list'], { env: { PETSTORE_PROFILE: 'qa' } }))
        .code,
    ).toBe(0);
  });

  it('PETSTORE_API_KEY beats the stored key', async () => {
    expectList(STAGING, ENV_KEY);
    expect((await run(['pets', 'list'], { env: { PETSTORE_API_KEY: ENV_KEY } })).code).toBe(0);
  });

  it('PETSTORE_BASE_URL beats the stored URL; --base-url beats both', async () => {
    expectList('https://env.petstore.test', STORED_KEY);
    const fromEnv = { PETSTORE_BASE_URL: 'https://env.petstore.test/v1' };
    expect((await run(['pets', 'list'], { env: fromEnv })).code).toBe(0);
    expectList('https://flag.petstore.test', STORED_KEY);
    const args = ['pets', 'list', '--base-url', 'https://flag.petstore.test/v1'];
    expect((await run(args, { env: fromEnv })).code).toBe(0);
  });

  it('never prints a stored or environment key, whatever the command', async () => {
    nock(STAGING).get('/v1/pets').times(4).reply(200, '[]', JSON_HEADERS);
    const outputs: string[] = [];
    for (const args of [
      ['profile', 'list'],
      ['profile', 'show'],
      ['auth', 'status'],
      ['-v', 'pets', 'list'],
      ['-v', 'pets', 'list', '-o', 'table'],
    ]) {
      for (const extra of [{}, { PETSTORE_API_KEY: ENV_KEY }] as Record<string, string>[]) {
        const result = await run(args, { env: extra });
        outputs.push(result.out, result.err);
      }
    }
    const all = outputs.join('\n');
    expect(all).toContain('****k123');
    expect(all).not.toContain(STORED_KEY);
    expect(all).not.toContain(ENV_KEY);
  });
});

describe('damaged or unreadable config', () => {
  function writeRaw(content: string) {
    mkdirSync(join(home, 'cfg'), { recursive: true, mode: 0o700 });
    writeFileSync(configFile, content, { mode: 0o600 });
  }

  it.each([
    ['{broken', /config file .*config.json is not valid JSON/],
    ['', /config file .*config.json is not valid JSON/],
    ['[1,2]', /is damaged: expected a JSON object/],
    ['{"profiles":{"qa":{"baseUrl":5}}}', /profile "qa": "baseUrl" is not a string/],
    ['{"schemaVersion":99,"profiles":{}}', /written by a newer petstore/],
  ])('reports %j clearly and leaves the file byte for byte', async (content, message) => {
    writeRaw(content);
    for (const args of [
      ['profile', 'list'],
      ['profile', 'set', 'qa', '--base-url', 'https://qa.test/v1'],
      ['auth', 'logout', '--profile', 'staging'],
    ]) {
      const result = await run(args, { tty: true });
      expect(result.code).toBe(2);
      expect(result.err).toMatch(message);
      expect(result.err).toContain('hint:');
      expect(result.err).not.toMatch(/\n\s+at /);
      expect(readFileSync(configFile, 'utf8')).toBe(content);
    }
  });

  it('reports a config path it cannot read', async () => {
    mkdirSync(configFile, { recursive: true });
    const result = await run(['profile', 'list']);
    expect(result.code).toBe(2);
    expect(result.err).toContain(`cannot read ${configFile}`);
  });

  it('reports a config folder it cannot create', async () => {
    writeFileSync(join(home, 'blocker'), 'a file where the folder should be');
    const result = await run(['profile', 'use', 'staging'], {
      env: { PETSTORE_CONFIG_DIR: join(home, 'blocker', 'cfg') },
    });
    expect(result.code).toBe(2);
    expect(result.err).toContain(`cannot create ${join(home, 'blocker', 'cfg')}`);
  });
});
