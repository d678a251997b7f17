import { execFile, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { freshHome } from '../helpers/run-cli.js';

/** Built by `npm run build:exe` (after the build); .ci/run builds it and requires this test. */
const EXE = fileURLToPath(
  new URL(`../../dist/exe/petstore-${process.platform}-${process.arch}`, import.meta.url),
);
const required = process.env.PETSTORE_REQUIRE_EXE_TESTS === '1';
const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

/** Runs the executable with only the system's directories on PATH: no Node 22 or 24 there. */
function exe(args: string[], env: Record<string, string> = {}) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = execFile(
      EXE,
      args,
      { env: { PATH: '/usr/bin:/bin', HOME: freshHome(), ...env }, timeout: 30_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? (error.code as number) : 0, stdout, stderr }),
    );
    child.stdin?.end();
  });
}

describe.runIf(existsSync(EXE) || required)('the single executable', () => {
  it('prints its version and its help (from the embedded help) with no Node on PATH', async () => {
    expect((await exe(['--version'])).stdout).toBe(`${pkg.version}\n`);
    const built = JSON.parse(
      readFileSync(new URL('../../dist/help.json', import.meta.url), 'utf8'),
    ) as Record<string, string>;
    expect((await exe(['help', 'pets', 'list'])).stdout).toBe(built['pets list']);
  });

  it('runs the quick start against its embedded sandbox (node:sqlite inside)', async () => {
    const home = freshHome();
    const added = await exe(
      ['pets', 'add', '--name', 'Rex', '--category-id', '1', '-o', 'ndjson'],
      {
        HOME: home,
      },
    );
    expect(added.code, added.stderr).toBe(0);
    expect(JSON.parse(added.stdout)).toMatchObject({ id: 1, name: 'Rex' });
    const listed = await exe(['pets', 'list', '-o', 'tsv', '--fields', 'id,name'], { HOME: home });
    expect(listed.stdout).toBe('id\tname\n1\tRex\n');
    const missing = await exe(['pets', 'get', '99'], { HOME: home });
    expect(missing.code).toBe(4);
  });

  it('serves the sandbox, and talks to it as a client', async () => {
    const server = spawn(
      EXE,
      ['sandbox', 'serve', '--port', '0', '--memory', '--api-key', 'sk_test_k_exe_key'],
      {
        env: { PATH: '/usr/bin:/bin', HOME: freshHome() },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let text = '';
        server.stderr.setEncoding('utf8').on('data', (chunk: string) => {
          text += chunk;
          // stderr is a pipe: the banner is a JSON object (docs/sandbox.md).
          const banner = text
            .split('\n')
            .slice(0, -1)
            .map((line) => JSON.parse(line) as { sandbox?: { apiBaseUrl?: string } })
            .find((line) => line.sandbox?.apiBaseUrl !== undefined);
          if (banner) resolve(banner.sandbox!.apiBaseUrl!);
        });
        server.on('exit', () => reject(new Error(`sandbox serve exited: ${text}`)));
      });
      const env = { PETSTORE_BASE_URL: url, PETSTORE_API_KEY: 'sk_test_k_exe_key' };
      const added = await exe(
        ['pets', 'add', '--name', 'Tom', '--category-id', '2', '-o', 'ndjson'],
        env,
      );
      expect(added.code, added.stderr).toBe(0);
      const listed = await exe(['pets', 'list', '--all', '-o', 'ndjson'], env);
      expect(
        listed.stdout
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as unknown),
      ).toEqual([{ id: 1, name: 'Tom', categoryId: 2 }]);
      const refused = await exe(['pets', 'list'], {
        ...env,
        PETSTORE_API_KEY: 'sk_test_wrong_key',
      });
      expect(refused.code).toBe(3);
    } finally {
      server.kill('SIGTERM');
    }
  });

  it('refuses bad input with exit 2 and a message, no stack trace', async () => {
    const result = await exe(['pets', 'list', '--limit', '0', '-o', 'table']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('petstore: --limit must be a whole number from 1 to 100');
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});
