import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandboxServer } from '../../src/sandbox/server.js';
import { freshHome, runCli } from '../helpers/run-cli.js';

/** Journals kept in the state folder, listed, pruned, and resumed by batch id. */

const KEY = 'sk_jrnl_7Qz9wK';
const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

interface Summary {
  path: string;
  batch: string;
  input: string;
  records: number;
  created: number;
  failed: number;
  unsent: number;
  finished: boolean;
}

async function setup(env: Record<string, string> = {}) {
  const server = await startSandboxServer({
    host: '127.0.0.1',
    port: 0,
    database: ':memory:',
    apiKeys: [KEY],
  });
  servers.push(server);
  const folder = mkdtempSync(join(tmpdir(), 'petstore-journals-'));
  const all = {
    HOME: freshHome(),
    PETSTORE_BASE_URL: server.apiBaseUrl,
    PETSTORE_API_KEY: KEY,
    ...env,
  };
  const input = (name: string, names: string[]) => {
    const path = join(folder, name);
    writeFileSync(path, 'name,categoryId\n' + names.map((n) => `${n},1\n`).join(''));
    return path;
  };
  const cli = (...args: string[]) => runCli(args, { env: all });
  const list = async () => {
    const listed = await cli('journal', 'list', '--json');
    expect(listed.code, listed.stderr).toBe(0);
    return JSON.parse(listed.stdout) as Summary[];
  };
  return { folder, env: all, input, cli, list };
}

/** A name the sandbox refuses (over 256 characters) and the client does not. */
const REFUSED = 'x'.repeat(300);

describe('journals', () => {
  it('are kept in $XDG_STATE_HOME/petstore/journals (else ~/.local/state), not beside the input', async () => {
    const state = mkdtempSync(join(tmpdir(), 'petstore-state-'));
    const { folder, input, cli } = await setup({ XDG_STATE_HOME: state });
    const ran = await cli('pets', 'import', input('a.csv', ['A', 'B']), '-o', 'ndjson');
    expect(ran.code, ran.stderr).toBe(0);
    expect(readdirSync(folder)).toEqual(['a.csv']);
    // With the lock files beside it (see docs/bulk.md).
    const [journal] = readdirSync(join(state, 'petstore', 'journals')).filter((name) =>
      name.endsWith('.journal'),
    );
    expect(journal).toMatch(
      /^\d{4}-\d\d-\d\dT[\d-]+Z-[0-9a-f]{8}-s[0-9a-f]{8}\.b[0-9a-f]{12}\.journal$/,
    );

    const home = await setup();
    expect((await home.cli('pets', 'import', home.input('b.csv', ['C']))).code).toBe(0);
    const journals = readdirSync(join(home.env.HOME, '.local', 'state', 'petstore', 'journals'));
    expect(journals.filter((name) => name.endsWith('.journal'))).toHaveLength(1);
  });

  it('are listed with their outcomes, resumed by batch id, and pruned only once finished', async () => {
    const { input, cli, list } = await setup();
    // Finished: both created.
    expect((await cli('pets', 'import', input('done.csv', ['A', 'B']))).code).toBe(0);
    // Unfinished: the first refused, and --fail-fast sends none after it.
    const stopped = await cli(
      'pets',
      'import',
      input('stopped.csv', [REFUSED, 'C', 'D']),
      '--fail-fast',
      '--concurrency',
      '1',
      '-o',
      'ndjson',
    );
    expect(stopped.code).toBe(5);

    const [done, open] = await list();
    expect(done).toMatchObject({ records: 2, created: 2, failed: 0, unsent: 0, finished: true });
    expect(open).toMatchObject({ records: 3, created: 0, failed: 1, unsent: 2, finished: false });
    expect(open!.input).toMatch(/stopped\.csv$/);
    // The run named the batch as the way to complete it.
    expect(stopped.stderr).toContain(`--resume ${open!.batch}`);

    const kept = await cli('journal', 'prune');
    expect(kept.code).toBe(0);
    expect(kept.stderr).toContain(`kept ${open!.path}: 2 never sent of 3 records`);
    expect(kept.stderr).toContain(
      'Removed 1 journal; kept 1 journal unfinished (--force removes them).',
    );
    expect(existsSync(done!.path)).toBe(false);
    expect(existsSync(open!.path)).toBe(true);

    const resumed = await cli('pets', 'import', '--resume', open!.batch, '-o', 'ndjson');
    expect(resumed.code).toBe(5); // the refused record is still refused
    expect(resumed.stdout.trim().split('\n')).toHaveLength(2);
    expect((await list())[0]).toMatchObject({ created: 2, failed: 1, unsent: 0, finished: true });
    // Finished: one line per record as journal show gives it, and nothing left beside it.
    const shown = await cli('journal', 'show', open!.batch, '-o', 'ndjson');
    expect(
      shown.stdout
        .trimEnd()
        .split('\n')
        .map((line) => (JSON.parse(line) as { outcome: string }).outcome),
    ).toEqual(['failed', 'created', 'created']);
    expect(existsSync(`${open!.path}-wal`)).toBe(false);
    const again = await cli(
      'pets',
      'import',
      '--resume',
      open!.batch,
      '--print-all',
      '-o',
      'ndjson',
    );
    const sorted = (text: string) => text.trimEnd().split('\n').sort();
    expect(sorted(again.stdout)).toEqual(sorted(resumed.stdout));
    const retried = await cli('pets', 'import', '--resume', open!.batch, '--retry-failed');
    expect(retried.code).toBe(5);
    expect((await list())[0]).toMatchObject({ created: 2, failed: 1, finished: true });

    expect((await cli('journal', 'prune', '--older-than', '1d')).stderr).toContain(
      'Removed 0 journals older than 24 h.',
    );
    expect((await cli('journal', 'prune')).code).toBe(0);
    expect(await list()).toEqual([]);
  });

  it('prune --force removes an unfinished journal, naming what is lost', async () => {
    const { input, cli, list } = await setup();
    await cli(
      'pets',
      'import',
      input('s.csv', [REFUSED, 'C']),
      '--fail-fast',
      '--concurrency',
      '1',
    );
    const [open] = await list();
    const dry = await cli('journal', 'prune', '--force', '--dry-run');
    expect(dry.stderr).toContain(`would remove the unfinished journal ${open!.path}`);
    expect(existsSync(open!.path)).toBe(true);
    const forced = await cli('journal', 'prune', '--force');
    expect(forced.stderr).toContain(
      `removed the unfinished journal ${open!.path} (batch ${open!.batch}): 1 never sent of 2 records; what it held can no longer be completed exactly once`,
    );
    expect(await list()).toEqual([]);
  });

  it('a batch id with no journal, and one with two, are refused with what to do', async () => {
    const { input, cli } = await setup();
    const none = await cli('pets', 'import', '--resume', 'no-such-batch');
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('no journal no-such-batch');
    const file = input('n.csv', ['A']);
    for (let run = 0; run < 2; run++) {
      expect((await cli('pets', 'import', file, '--batch-id', 'nightly-7')).code).toBe(0);
    }
    const two = await cli('pets', 'import', '--resume', 'nightly-7');
    expect(two.code).toBe(2);
    expect(two.stderr).toContain('batch nightly-7 has 2 journals');
  });

  it('lists and leaves alone what is no journal; resumes through a link, which stays one', async () => {
    const { input, cli, list, env } = await setup();
    const folder = join(env.HOME, '.local', 'state', 'petstore', 'journals');
    // A journal kept elsewhere, reached through a link in the journals folder.
    const elsewhere = join(mkdtempSync(join(tmpdir(), 'petstore-elsewhere-')), 'real.journal');
    const stopped = await cli(
      'pets',
      'import',
      input('l.csv', [REFUSED, 'C']),
      '--fail-fast',
      '--concurrency',
      '1',
      '--journal',
      elsewhere,
    );
    expect(stopped.code).toBe(5);
    mkdirSync(folder, { recursive: true });
    symlinkSync(elsewhere, join(folder, 'link.journal'));
    symlinkSync('/nonexistent', join(folder, 'dangling.journal'));
    mkdirSync(join(folder, 'a-folder.journal'));
    writeFileSync(join(folder, 'notes.journal'), 'my notes\n');

    const listed = await list();
    expect(listed.map((j) => j.path.slice(folder.length + 1)).sort()).toEqual([
      'a-folder.journal',
      'dangling.journal',
      'link.journal',
      'notes.journal',
    ]);
    const resumed = await cli('pets', 'import', '--resume', join(folder, 'link.journal'));
    expect(resumed.code).toBe(5);
    // Written where it is: the link is still a link, and nothing of it is left beside it.
    expect(lstatSync(join(folder, 'link.journal')).isSymbolicLink()).toBe(true);
    expect(readFileSync(elsewhere).subarray(0, 15).toString()).toBe('SQLite format 3');
    expect(readdirSync(join(elsewhere, '..'))).toEqual(['real.journal']);

    const pruned = await cli('journal', 'prune', '--force');
    expect(pruned.code, pruned.stderr).toBe(0);
    expect(pruned.stderr).toContain(
      `kept ${join(folder, 'notes.journal')}: not a petstore journal`,
    );
    expect(pruned.stderr).not.toContain('unfinished');
    // (.inputs: the locks of the inputs imported, which stay; docs/bulk.md.)
    expect(
      readdirSync(folder)
        .filter((name) => name !== '.inputs')
        .sort(),
    ).toEqual(['a-folder.journal', 'dangling.journal', 'link.journal', 'notes.journal']);
  });

  it('ignores a relative XDG_STATE_HOME, as the XDG specification says', async () => {
    const { input, cli, env } = await setup({ XDG_STATE_HOME: 'relative/state' });
    const added = await cli('pets', 'import', input('r2.csv', ['B']));
    expect(added.code, added.stderr).toBe(0);
    expect(added.stderr).toContain(join(env.HOME, '.local', 'state', 'petstore', 'journals'));
  });
});
