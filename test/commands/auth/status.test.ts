import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ENV_KEY, STORED_KEY, useConfigHome } from '../../helpers/config-home.js';

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
