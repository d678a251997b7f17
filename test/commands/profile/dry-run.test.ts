import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { STORED_KEY, useConfigHome } from '../../helpers/config-home.js';

const cli = useConfigHome();
const { run, login } = cli;

interface Preview {
  dryRun: boolean;
  file: string;
  changes: { path: string; from: unknown; to: unknown }[];
}

/** Runs a config change with --dry-run: prints what would change, writes nothing. */
async function dryRun(args: string[], stdin?: string): Promise<Preview> {
  const before = existsSync(cli.configFile) ? readFileSync(cli.configFile) : undefined;
  const result = await run([...args, '--dry-run'], { stdin, tty: stdin === undefined });
  expect(result.code, result.err).toBe(0);
  expect(result.err).toContain('Dry run: nothing was written.');
  const after = existsSync(cli.configFile) ? readFileSync(cli.configFile) : undefined;
  expect(after).toEqual(before);
  return JSON.parse(result.out) as Preview;
}

describe('--dry-run on profile and auth changes', () => {
  it('profile set: the values it would set, nothing written (not even the folder)', async () => {
    const preview = await dryRun(['profile', 'set', 'qa', '--base-url', 'https://qa.test/v1']);
    expect(preview).toEqual({
      dryRun: true,
      file: cli.configFile,
      changes: [{ path: 'profiles.qa.baseUrl', from: null, to: 'https://qa.test/v1' }],
    });
    expect(existsSync(cli.configFile)).toBe(false);
  });

  it('profile use and remove: what would change', async () => {
    await run(['profile', 'set', 'qa', '--base-url', 'https://qa.test/v1']);
    expect((await dryRun(['profile', 'use', 'qa'])).changes).toEqual([
      { path: 'activeProfile', from: null, to: 'qa' },
    ]);
    expect((await dryRun(['profile', 'remove', 'qa'])).changes).toEqual([
      { path: 'profiles.qa.baseUrl', from: 'https://qa.test/v1', to: null },
    ]);
  });

  it('auth login and logout: the key only masked, never checked with the service', async () => {
    await login('staging');
    const replacing = await run(['auth', 'login', '--profile', 'staging', '--dry-run'], {
      stdin: 'sk_new_SECRET_9876\n',
      tty: false,
    });
    expect(replacing.code, replacing.err).toBe(0);
    expect(replacing.out + replacing.err).not.toMatch(/SECRET/);
    // By default the key would go to the OS keyring: the file would lose its copy.
    expect((JSON.parse(replacing.out) as Preview).changes).toEqual([
      { path: 'profiles.staging.apiKey', from: `****${STORED_KEY.slice(-4)}`, to: null },
      { path: 'profiles.staging.keyStore', from: null, to: 'keyring' },
    ]);
    const toFile = await run(
      ['auth', 'login', '--profile', 'staging', '--dry-run', '--insecure-storage'],
      { stdin: 'sk_new_SECRET_9876\n', tty: false },
    );
    expect((JSON.parse(toFile.out) as Preview).changes).toEqual([
      { path: 'profiles.staging.apiKey', from: `****${STORED_KEY.slice(-4)}`, to: '****9876' },
    ]);
    const logout = await dryRun(['auth', 'logout', '--profile', 'staging']);
    expect(logout.changes).toEqual([
      { path: 'profiles.staging.apiKey', from: `****${STORED_KEY.slice(-4)}`, to: null },
    ]);
    expect(readFileSync(cli.configFile, 'utf8')).toContain(STORED_KEY);
  });
});
