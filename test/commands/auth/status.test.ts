import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAuthLogout } from '../../../src/commands/auth/logout.js';
import { runAuthStatus } from '../../../src/commands/auth/status.js';
import { CONFIG_FILE_NAME, configDir } from '../../../src/config/paths.js';
import { ENV_KEY, STORED_KEY, useConfigHome } from '../../helpers/config-home.js';
import { optionsOf } from '../../helpers/run-f.js';
import { VERB_KEY, verbContext } from '../../helpers/verb-context.js';

const cli = useConfigHome();
const { run, login } = cli;

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
    expect(result.err).toContain(
      'Removed the key of profile staging from the config file (****k123).',
    );
    const saved = readFileSync(cli.configFile, 'utf8');
    expect(saved).not.toContain(STORED_KEY);
    expect(saved).toContain('sk_prod_key_7777');
  });
});

describe('auth status and logout: flags to options (runF)', () => {
  it.each([
    [['auth', 'status'], {}],
    [['auth', 'logout'], { dryRun: false }],
    [['auth', 'logout', '--dry-run'], { dryRun: true }],
    [['--profile', 'staging', 'auth', 'logout'], { dryRun: false }],
  ])('%j', async (argv, options) => {
    expect(await optionsOf(argv)).toEqual(options);
  });
});

describe('auth status and logout, run with typed options', () => {
  it('status shows the environment key masked, and says it overrides stored ones', async () => {
    const { ctx, io } = verbContext({ raw: { output: 'json' } });
    await runAuthStatus(ctx);
    const rows = JSON.parse(io.out()) as { name: string; key: string | null; keySource: string }[];
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.keySource).toBe('env');
      expect(row.key).toBe(`****${VERB_KEY.slice(-4)}`);
    }
    expect(io.out()).not.toContain(VERB_KEY);
    expect(io.err()).toContain('PETSTORE_API_KEY is set');
  });

  it.each([false, true])(
    'a dry run of logout (--all: %s) is one document, nothing written',
    async (all) => {
      const { ctx, io } = verbContext({ raw: { output: 'json', profile: 'staging' } });
      await runAuthLogout(ctx, { dryRun: true, all });
      expect(JSON.parse(io.out())).toMatchObject({ dryRun: true });
      expect(io.err()).toContain('Dry run: nothing was written.');
      expect(existsSync(join(configDir(ctx.env), CONFIG_FILE_NAME))).toBe(false);
    },
  );
});
