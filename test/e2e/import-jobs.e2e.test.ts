import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, freshHome, runCli } from '../helpers/run-cli.js';
import { sandboxService } from '../helpers/sandbox-service.js';
import { waitUntil } from '../helpers/wait-until.js';

/**
 * An import as an operator's job, through the built petstore against the sandbox over real
 * HTTP: the same sheet twice (by content, wherever it lies), and one input shared by several
 * machines (a state folder each) with --shard.
 */

function sheet(count: number, prefix = 'pet'): string {
  const file = join(mkdtempSync(join(tmpdir(), 'petstore-jobs-')), 'pets.csv');
  const rows = Array.from({ length: count }, (_, i) => `${prefix}-${i},${(i % 5) + 1}\n`);
  writeFileSync(file, `name,categoryId\n${rows.join('')}`);
  return file;
}

describe('the same sheet imported twice', () => {
  it('is refused, nothing sent, naming the earlier batch, wherever the copy lies; --again sends it', async () => {
    const { env, pets } = await sandboxService();
    const file = sheet(3);
    const first = await runCli(['pets', 'import', file, '--json'], { env });
    expect(first.code, first.stderr).toBe(0);
    const batch = /"batchId":"([^"]+)"/.exec(first.stderr)![1]!;
    const copy = join(mkdtempSync(join(tmpdir(), 'petstore-jobs-copy-')), 'renamed.csv');
    copyFileSync(file, copy);
    for (const again of [file, copy]) {
      const refused = await runCli(['pets', 'import', again, '--error-format', 'text'], { env });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(
        `was imported in full before: batch ${batch} created its 3 records`,
      );
      expect(refused.stderr).toMatch(/^hint: .*--again/m);
    }
    expect(await pets()).toHaveLength(3);
    // Read from standard input, the same content is the same sheet.
    const piped = await runCli(['pets', 'import', '-'], {
      env,
      input: `name,categoryId\npet-0,1\npet-1,2\npet-2,3\n`,
    });
    expect(piped.code).toBe(2);
    const again = await runCli(['pets', 'import', copy, '--again', '--json'], { env });
    expect(again.code, again.stderr).toBe(0);
    expect(await pets()).toHaveLength(6);
  });

  it('that did not finish is pointed at the run that completes it', async () => {
    const { env, pets } = await sandboxService();
    const file = sheet(4);
    // The first run reaches no service: nothing is sent, the journal keeps every record unsent.
    const down = { ...env, PETSTORE_BASE_URL: 'http://127.0.0.1:9/v1' };
    const failed = await runCli(['pets', 'import', file, '--json'], { env: down });
    expect(failed.code).toBe(7);
    // The service is another one then: the sheet is new to this one.
    const elsewhere = await runCli(['pets', 'import', file, '--json'], { env });
    expect(elsewhere.code, elsewhere.stderr).toBe(0);
    expect(await pets()).toHaveLength(4);
    const back = await runCli(['pets', 'import', file, '--error-format', 'text'], { env: down });
    expect(back.code).toBe(2);
    expect(back.stderr).toContain('which did not create every record: 0 created, 4 never sent');
    expect(back.stderr).toMatch(
      /^hint: Complete that run: petstore pets import --resume \S+ --retry-unknown/m,
    );
  });
});

/** A petstore process of its own, as a machine of a fleet runs it. */
function machine(args: string[], env: Record<string, string>, home = freshHome()) {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { PATH: process.env.PATH ?? '', ...env, HOME: home },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const done = new Promise<number | null>((resolve) => child.on('close', resolve));
  return { child, done, home, out: () => stdout, err: () => stderr };
}

describe('the same sheet, however it comes again', () => {
  it('while its first import still runs: refused, naming that run', async () => {
    // 600 requests one at a time, 10 ms each: the first run sends for 6 s at least.
    const { env, pets } = await sandboxService({ latencyMs: { min: 10, max: 10 }, seed: 3 });
    const file = sheet(600, 'busy');
    const first = machine(
      ['pets', 'import', file, '-o', 'ndjson', '--concurrency', '1'],
      env,
      env.HOME,
    );
    await waitUntil(() => first.out().split('\n').length > 3, 'the first run sending');
    const second = await runCli(['pets', 'import', file, '--error-format', 'text'], { env });
    expect(second.code).toBe(2);
    expect(second.stderr).toMatch(
      /is being imported into this service now, by another run \(pid \d+/,
    );
    expect(await first.done).toBe(0);
    expect(await pets()).toHaveLength(600);
  }, 60_000);

  it('with its rows, columns or JSON keys in another order, or the service typed another way: refused', async () => {
    const { env, pets } = await sandboxService();
    const folder = mkdtempSync(join(tmpdir(), 'petstore-jobs-same-'));
    const write = (name: string, text: string) => {
      writeFileSync(join(folder, name), text);
      return join(folder, name);
    };
    const first = await runCli(
      ['pets', 'import', write('a.csv', 'name,categoryId,status\nA,1,sold\nB,2,\n'), '--json'],
      { env },
    );
    expect(first.code, first.stderr).toBe(0);
    const base = env.PETSTORE_BASE_URL;
    const shouted = base.replace(/^http:/, 'HTTP:');
    for (const [input, url] of [
      [write('moved.csv', 'Status,NAME,Category ID\nsold,A,1\n,B,2\n'), base],
      [
        write(
          'sorted.ndjson',
          '{"categoryId":1,"name":"A","status":"sold"}\n{"categoryId":2,"name":"B"}\n',
        ),
        base,
      ],
      [write('sorted-rows.csv', 'name,categoryId,status\nB,2,\nA,1,sold\n'), base],
      [join(folder, 'a.csv'), `${base}/`],
      [join(folder, 'a.csv'), shouted],
    ] as const) {
      const again = await runCli(['pets', 'import', input, '--error-format', 'text'], {
        env: { ...env, PETSTORE_BASE_URL: url },
      });
      expect(again.code, `${input} ${url}: ${again.stderr}`).toBe(2);
      expect(again.stderr).toContain('was imported in full before');
    }
    expect(await pets()).toHaveLength(2);
  });

  it('as the same named batch under another name, or on stdin: each record answered, none twice', async () => {
    const { env, pets } = await sandboxService();
    const file = sheet(20, 'named');
    const first = await runCli(['pets', 'import', file, '--batch-id', 'job-7', '--json'], { env });
    expect(first.code, first.stderr).toBe(0);
    const renamed = join(mkdtempSync(join(tmpdir(), 'petstore-jobs-renamed-')), 'other.csv');
    copyFileSync(file, renamed);
    const again = await runCli(['pets', 'import', renamed, '--batch-id', 'job-7', '--json'], {
      env,
    });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/"createdNow":0,"replayed":20/);
    const piped = await runCli(['pets', 'import', '-', '--batch-id', 'job-7', '--json'], {
      env,
      input: readFileSync(file, 'utf8'),
    });
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stderr).toMatch(/"createdNow":0,"replayed":20/);
    expect(await pets()).toHaveLength(20);
  });

  it('a record the service refused, fixed in place, completes the named batch as its hint says', async () => {
    const { env, pets } = await sandboxService();
    const file = join(mkdtempSync(join(tmpdir(), 'petstore-jobs-fix-')), 'fix.csv');
    writeFileSync(file, `name,categoryId\nF0,1\n${'L'.repeat(300)},1\nF2,1\n`);
    const refused = await runCli(['pets', 'import', file, '--batch-id', 'fix-1', '--json'], {
      env,
    });
    expect(refused.code).toBe(5);
    writeFileSync(file, 'name,categoryId\nF0,1\nF1,1\nF2,1\n');
    const fixed = await runCli(['pets', 'import', file, '--batch-id', 'fix-1', '--json'], { env });
    expect(fixed.code, fixed.stderr).toBe(0);
    expect(fixed.stderr).toMatch(/"createdNow":1,"replayed":2/);
    expect((await pets()).map((pet) => pet.name).sort()).toEqual(['F0', 'F1', 'F2']);
  });
});

describe('one input split across machines (--shard)', () => {
  it('creates each record once: four shards at once, one killed and re-run elsewhere, one sent twice', async () => {
    const COUNT = 400;
    const { env, pets } = await sandboxService({ latencyMs: { min: 1, max: 4 }, seed: 3 });
    const file = sheet(COUNT);
    const job = (shard: string) => [
      'pets',
      'import',
      file,
      '--shard',
      shard,
      '--batch-id',
      'job-42',
      '-o',
      'ndjson',
    ];
    const fleet = ['1/4', '2/4', '3/4', '4/4'].map((shard) => machine(job(shard), env));
    // The same shard from a fifth machine at the same time as the second.
    const twin = machine(job('2/4'), env);
    // The third is killed part way.
    await waitUntil(() => fleet[2]!.out().split('\n').length > 10, 'shard 3/4 under way');
    fleet[2]!.child.kill('SIGKILL');
    const codes = await Promise.all([...fleet, twin].map((run) => run.done));
    expect(
      codes.filter((code) => code === 0),
      fleet.map((run) => run.err()).join('\n'),
    ).toHaveLength(4);
    // Shard 3/4 again, from a machine that never saw the killed one's journal.
    const rerun = machine(job('3/4'), env);
    expect(await rerun.done, rerun.err()).toBe(0);
    const names = (await pets()).map((pet) => pet.name);
    expect(names).toHaveLength(COUNT);
    expect(new Set(names).size).toBe(COUNT);
    // The second's twin created nothing of its own: every pet it printed was answered from
    // the other's requests, or created by it while the other's were answered from it.
    expect(twin.out().trim().split('\n')).toHaveLength(COUNT / 4);
  }, 60_000);

  it('says what a shard needs, before anything is sent', async () => {
    const { env, pets } = await sandboxService();
    const file = sheet(4);
    const unnamed = await runCli(['pets', 'import', file, '--shard', '1/2'], { env });
    expect(unnamed.code).toBe(2);
    expect(unnamed.stderr).toContain('--shard needs --batch-id');
    const first = await runCli(
      ['pets', 'import', file, '--shard', '1/2', '--batch-id', 'b', '--json'],
      { env },
    );
    expect(first.code, first.stderr).toBe(0);
    expect((await pets()).map((pet) => pet.name)).toEqual(['pet-0', 'pet-2']);
  });
});

describe('the rejects file and standard output', () => {
  it('--rejects naming where stdout goes (a file, a pipe) is refused before anything is sent', async () => {
    const { env, pets } = await sandboxService();
    const folder = mkdtempSync(join(tmpdir(), 'petstore-jobs-stdout-'));
    const file = join(folder, 'pets.csv');
    writeFileSync(file, 'name,categoryId\nA,1\n,2\n');
    const out = join(folder, 'out.ndjson');
    const petstore = `"${process.execPath}" "${BIN}"`;
    const run = (redirect: string) =>
      new Promise<{ code: number | null; stderr: string }>((resolve) => {
        const child = spawn(
          'sh',
          [
            '-c',
            `${petstore} pets import "${file}" --skip-invalid --rejects /dev/stdout ${redirect}`,
          ],
          { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
        );
        let stderr = '';
        child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
        child.stdout.resume();
        child.on('close', (code) => resolve({ code, stderr }));
      });
    for (const redirect of [`> "${out}"`, '| cat']) {
      const ran = await run(redirect);
      expect(ran.code, ran.stderr).toBe(redirect.startsWith('|') ? 0 : 2);
      expect(ran.stderr).toContain('--rejects names what standard output writes to');
    }
    expect(await pets()).toEqual([]);
  });

  it('--rejects naming where stderr goes is refused too: no rows among the messages', async () => {
    const { env, pets } = await sandboxService();
    const folder = mkdtempSync(join(tmpdir(), 'petstore-jobs-stderr-'));
    const file = join(folder, 'pets.csv');
    writeFileSync(file, 'name,categoryId\nA,1\n,2\n');
    const errors = join(folder, 'errors.log');
    const code = await new Promise<number | null>((resolve) => {
      const child = spawn(
        'sh',
        [
          '-c',
          `"${process.execPath}" "${BIN}" pets import "${file}" --skip-invalid --rejects /dev/stderr 2> "${errors}"`,
        ],
        { env: { PATH: process.env.PATH ?? '', ...env }, stdio: 'ignore' },
      );
      child.on('close', resolve);
    });
    expect(code).toBe(2);
    expect(readFileSync(errors, 'utf8')).toContain('--rejects names what standard error writes to');
    expect(await pets()).toEqual([]);
  });
});

describe('a killed run whose log another program folded into its journal', () => {
  it('is whole: the resume completes it, each pet once', async () => {
    const { env, pets } = await sandboxService({ latencyMs: { min: 2, max: 2 }, seed: 9 });
    const file = sheet(300);
    const first = machine(['pets', 'import', file, '-o', 'ndjson', '--concurrency', '2'], env);
    await waitUntil(() => first.out().split('\n').length > 20, 'twenty pets created');
    first.child.kill('SIGKILL');
    await first.done;
    const journal =
      /"path":"([^"]+\.journal)"/.exec(first.err())?.[1] ??
      /Journal: (\S+\.journal)/.exec(first.err())![1]!;
    // What `sqlite3 JOURNAL "select ..."` does: open it, read, close; SQLite folds the log
    // into the file and removes it.
    const { DatabaseSync } = await import('node:sqlite');
    const other = new DatabaseSync(journal);
    other.prepare('SELECT count(*) FROM records').get();
    other.close();
    expect(existsSync(`${journal}-wal`)).toBe(false);
    const home = first.home;
    const resumed = await runCli(
      ['pets', 'import', '--resume', journal, '--retry-unknown', '-o', 'ndjson'],
      {
        env: { ...env, HOME: home },
      },
    );
    expect(resumed.code, resumed.stderr).toBe(0);
    const names = (await pets()).map((pet) => pet.name);
    expect(names).toHaveLength(300);
    expect(new Set(names).size).toBe(300);
  });
});
