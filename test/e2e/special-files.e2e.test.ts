import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

/**
 * A file petstore reads that is no regular file, or that never ends, is exit 2 naming its
 * path: never a hang (a FIFO), never memory without end (/dev/zero), never a crash.
 * Spawned, so a hang is a timeout and not a stuck test worker.
 */

const hasMkfifo = spawnSync('mkfifo', ['--version']).status === 0;

/** Makes `path` a file of the kind. */
const kinds = {
  fifo: (path: string) => spawnSync('mkfifo', [path]),
  folder: (path: string) => mkdirSync(path),
  'link to /dev/zero': (path: string) => symlinkSync('/dev/zero', path),
  'link to /dev/urandom': (path: string) => symlinkSync('/dev/urandom', path),
  'link to a folder': (path: string) => symlinkSync(tmpdir(), path),
} as const;

/** Each file petstore reads, the command that reads it, and where it must be. */
const readers = {
  config: (home: string) => ({
    path: join(home, 'cfg', 'config.json'),
    args: ['profile', 'list'],
  }),
  'completion of profile names': (home: string) => ({
    path: join(home, 'cfg', 'config.json'),
    args: ['__complete', 'profiles'],
  }),
  'pets import': (home: string) => ({
    path: join(home, 'pets.ndjson'),
    args: ['pets', 'import', join(home, 'pets.ndjson')],
  }),
  'message send --file': (home: string) => ({
    path: join(home, 'message.txt'),
    args: ['message', 'send', '--file', join(home, 'message.txt'), '--dry-run'],
  }),
  'pets import --resume': (home: string) => ({
    path: join(home, 'run.journal'),
    args: ['pets', 'import', '--resume', join(home, 'run.journal')],
  }),
} as const;

describe.runIf(hasMkfifo)('files that are not regular files', () => {
  it('are exit 2 naming the path, at once', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...(Object.keys(kinds) as (keyof typeof kinds)[])),
        fc.constantFrom(...(Object.keys(readers) as (keyof typeof readers)[])),
        async (kind, reader) => {
          const home = mkdtempSync(join(tmpdir(), 'petstore-special-'));
          mkdirSync(join(home, 'cfg'), { mode: 0o700 });
          const { path, args } = readers[reader](home);
          kinds[kind](path);
          const env = {
            HOME: home,
            PETSTORE_CONFIG_DIR: join(home, 'cfg'),
            PETSTORE_BASE_URL: 'http://127.0.0.1:9/v1',
            PETSTORE_QUICKSTART_URL: 'http://127.0.0.1:9/quickstart',
            PETSTORE_API_KEY: 'sk_test_special_files',
          };
          const global = reader === 'completion of profile names' ? [] : ['-o', 'table'];
          // A hang is killed at runCli's limit, and its exit code then fails the case.
          const result = await runCli([...global, ...args], { env, stdinFromDevNull: true });
          if (reader === 'completion of profile names') {
            // A TAB never prints an error: the built-in names, at once.
            expect(result.code).toBe(0);
            expect(result.stdout.split('\n')).toContain('sandbox');
            return;
          }
          expect(result.code, result.stderr).toBe(2);
          expect(result.stderr).toContain(path);
          expect(result.stderr).not.toMatch(/\n\s+at /);
        },
      ),
      { numRuns: 25 },
    );
  }, 120_000);

  it('a file that holds more than its cap is refused, however its size was reported', async () => {
    const home = mkdtempSync(join(tmpdir(), 'petstore-special-'));
    mkdirSync(join(home, 'cfg'), { mode: 0o700 });
    writeFileSync(join(home, 'cfg', 'config.json'), `{"profiles":{},"x":"${'x'.repeat(1 << 21)}"}`);
    const result = await runCli(['-o', 'table', 'profile', 'list'], {
      env: { HOME: home, PETSTORE_CONFIG_DIR: join(home, 'cfg') },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('is larger than 1 MiB');
  });
});
