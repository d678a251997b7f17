import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { helperKeyring, KeyringUnavailableError } from '../../../src/config/keyring.js';
import { STAGING, STORED_KEY, useConfigHome } from '../../helpers/config-home.js';
import { MemoryKeyring } from '../../helpers/fake-keyring.js';
import { FakeTransport, json } from '../../helpers/fake-transport.js';

const cli = useConfigHome();
const { run, login } = cli;
const KEY = 'sk_live_KEYRING_SECRET_4321';

/** `auth login --profile staging` of KEY, with this keyring. */
function loginToKeyring(keyring: MemoryKeyring) {
  return run(['auth', 'login', '--profile', 'staging', '--no-verify'], {
    stdin: `${KEY}\n`,
    keyring,
  });
}

async function setUpStaging() {
  expect((await run(['profile', 'set', 'staging', '--base-url', `${STAGING}/v1`])).code).toBe(0);
}

function config(): { profiles: Record<string, Record<string, unknown>> } {
  return JSON.parse(readFileSync(cli.configFile, 'utf8')) as {
    profiles: Record<string, Record<string, unknown>>;
  };
}

describe('keys in the OS keyring', () => {
  it('login stores the key in the keyring, the file only says so, and requests use it', async () => {
    await setUpStaging();
    const keyring = new MemoryKeyring();
    const login = await loginToKeyring(keyring);
    expect(login.code, login.err).toBe(0);
    expect(login.err).toContain(
      'API key ****4321 stored (not verified) for profile staging in the OS keyring.',
    );
    expect(keyring.entries.get('staging')).toBe(KEY);
    expect(config().profiles.staging).toEqual({ baseUrl: `${STAGING}/v1`, keyStore: 'keyring' });
    expect(readFileSync(cli.configFile, 'utf8')).not.toContain('SECRET');

    const status = await run(['auth', 'status', '--profile', 'staging', '-o', 'json'], { keyring });
    expect(JSON.parse(status.out)).toEqual([
      expect.objectContaining({ name: 'staging', keySource: 'keyring', key: '****4321' }),
    ]);

    const transport = new FakeTransport().on('GET', '/v1/pets', json(200, []));
    const list = await run(['--profile', 'staging', 'pets', 'list', '--json'], {
      keyring,
      transport,
    });
    expect(list.code, list.err).toBe(0);
    expect(transport.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(list.out + list.err).not.toContain(KEY);
  });

  it('falls back to the 0600 file with a warning naming the reason when no keyring answers', async () => {
    await setUpStaging();
    const keyring = new MemoryKeyring();
    keyring.unavailable = 'it did not answer within 2.5 s';
    const login = await loginToKeyring(keyring);
    expect(login.code).toBe(0);
    expect(login.err).toContain(
      'warning: the OS keyring is not available: it did not answer within 2.5 s; the key goes to',
    );
    expect(login.err).toContain('(mode 0600)');
    expect(config().profiles.staging!.apiKey).toBe(KEY);
    expect(config().profiles.staging!.keyStore).toBeUndefined();
  });

  it('--insecure-storage never asks the keyring, and clears an entry the file replaces', async () => {
    await setUpStaging();
    const keyring = new MemoryKeyring();
    await loginToKeyring(keyring);
    keyring.calls.length = 0;
    const login = await run(
      ['auth', 'login', '--profile', 'staging', '--no-verify', '--insecure-storage'],
      { stdin: `${STORED_KEY}\n`, keyring },
    );
    expect(login.code).toBe(0);
    expect(keyring.calls).toEqual(['delete staging']);
    expect(keyring.entries.size).toBe(0);
    expect(config().profiles.staging!.apiKey).toBe(STORED_KEY);
  });

  it('--migrate moves a file key into the keyring; a file key keeps working until then', async () => {
    await setUpStaging();
    await login('staging');
    const keyring = new MemoryKeyring();
    const before = await run(['auth', 'status', '--profile', 'staging', '-o', 'json'], { keyring });
    expect(JSON.parse(before.out)).toEqual([expect.objectContaining({ keySource: 'config' })]);
    expect(keyring.calls).toEqual([]);

    const migrated = await run(['auth', 'login', '--profile', 'staging', '--migrate'], { keyring });
    expect(migrated.code, migrated.err).toBe(0);
    expect(migrated.err).toContain(
      'moved from the config file for profile staging in the OS keyring',
    );
    expect(keyring.entries.get('staging')).toBe(STORED_KEY);
    expect(readFileSync(cli.configFile, 'utf8')).not.toContain(STORED_KEY);
  });

  it('--migrate with no keyring leaves the file key where it is and says why', async () => {
    await setUpStaging();
    await login('staging');
    const keyring = new MemoryKeyring();
    keyring.unavailable = 'no Secret Service';
    const migrated = await run(['auth', 'login', '--profile', 'staging', '--migrate'], { keyring });
    expect(migrated.code).toBe(2);
    expect(migrated.err).toContain(
      'stays in the config file: the OS keyring is not available: no Secret Service',
    );
    expect(config().profiles.staging!.apiKey).toBe(STORED_KEY);
  });

  it('logout removes the key from the keyring and the file', async () => {
    await setUpStaging();
    const keyring = new MemoryKeyring();
    await loginToKeyring(keyring);
    const logout = await run(['auth', 'logout', '--profile', 'staging'], { keyring });
    expect(logout.err).toContain('Removed the key of profile staging from the OS keyring.');
    expect(keyring.entries.size).toBe(0);
    expect(config().profiles.staging).toEqual({ baseUrl: `${STAGING}/v1` });
  });

  it("logout --all removes every profile's key, from the file and the keyring, the rest kept", async () => {
    await setUpStaging();
    const keyring = new MemoryKeyring();
    await loginToKeyring(keyring);
    expect((await run(['profile', 'set', 'ci', '--base-url', `${STAGING}/v1`])).code).toBe(0);
    const inFile = await run(
      ['auth', 'login', '--profile', 'ci', '--no-verify', '--insecure-storage'],
      {
        stdin: `${KEY}\n`,
        keyring,
      },
    );
    expect(inFile.code, inFile.err).toBe(0);
    // Left behind in the keyring by another copy of petstore: the file does not name it.
    keyring.entries.set('production', 'sk_left_behind');
    const logout = await run(['auth', 'logout', '--all'], { keyring });
    expect(logout.code, logout.err).toBe(0);
    expect(logout.err).toContain('Removed the key of profile staging from the OS keyring.');
    expect(logout.err).toContain('Removed the key of profile ci from the config file');
    expect(keyring.entries.size).toBe(0);
    expect(readFileSync(cli.configFile, 'utf8')).not.toContain(KEY);
    expect(config().profiles.ci).toEqual({ baseUrl: `${STAGING}/v1` });
  });

  it('a keyring that cannot be reached, or lost the key, is exit 3 with what to do', async () => {
    await setUpStaging();
    const keyring = new MemoryKeyring();
    await loginToKeyring(keyring);
    keyring.unavailable = 'it did not answer within 2.5 s';
    const silent = await run(['--profile', 'staging', 'pets', 'list'], { keyring });
    expect(silent.code).toBe(3);
    expect(silent.err).toContain('is in the OS keyring, which cannot be used: it did not answer');
    expect(silent.err).toContain('PETSTORE_API_KEY');
    keyring.unavailable = undefined;
    keyring.entries.clear();
    const lost = await run(['--profile', 'staging', 'pets', 'list'], { keyring });
    expect(lost.code).toBe(3);
    expect(lost.err).toContain('holds no key for profile staging');
  });
});

describe('the keyring helper process', () => {
  it('is killed at the deadline when it hangs, and the tool goes on', async () => {
    const hanging = helperKeyring([process.execPath, '-e', 'setInterval(() => {}, 1000)'], 300);
    // A helper left running would outlast this test's time.
    await expect(hanging.get('staging')).rejects.toThrow(KeyringUnavailableError);
  });

  it('gets the key on stdin, never on its command line', async () => {
    const record = join(mkdtempSync(join(tmpdir(), 'keyring-helper-')), 'seen.json');
    // A stand-in helper that records what it was given, then answers as the real one does.
    const script = `let s = ''; process.stdin.on('data', (d) => (s += d)).on('end', () => {
      require('node:fs').writeFileSync(${JSON.stringify(record)}, JSON.stringify({ argv: process.argv.slice(1), stdin: s }));
      console.log(JSON.stringify({ ok: true }));
    });`;
    await helperKeyring([process.execPath, '-e', script]).set('staging', KEY);
    const seen = JSON.parse(readFileSync(record, 'utf8')) as { argv: string[]; stdin: string };
    expect(seen.argv).toEqual(['__keyring', 'set', 'staging']);
    expect(seen.stdin).toBe(KEY);
  });
});
