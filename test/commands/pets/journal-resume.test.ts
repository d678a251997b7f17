import { mkdtempSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { JournalStore } from '../../../src/bulk/journal-store.js';
import { editJournal, readJournalFile as readJournal } from '../../helpers/journal-file.js';
import { main } from '../../../src/main.js';
import { fakeIO } from '../../helpers/fake-io.js';
import { freshHome } from '../../helpers/run-cli.js';
import { sandboxService } from '../../helpers/sandbox-service.js';
import { startIdempotentService } from '../../helpers/idempotent-service.js';
import { sendJson, startTestServer, type TestServer } from '../../helpers/test-server.js';
import { journalOnStderr } from '../../helpers/journal-line.js';

const servers: TestServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

/**
 * A service that honours Idempotency-Key like the sandbox, and can be told what the sandbox's
 * fault flags cannot: to create a named pet and then drop the connection (the unknown
 * outcome) or answer 500, and to show each request's key. Elsewhere the sandbox serves.
 */
async function service(
  options: {
    dropNames?: Set<string>;
    failNames?: Set<string>;
    refusesBeforeKeys?: (name: string) => boolean;
  } = {},
) {
  const { server, created } = await startIdempotentService(options);
  servers.push(server);
  const env = {
    HOME: freshHome(),
    PETSTORE_BASE_URL: `${server.url}/v1`,
    PETSTORE_API_KEY: 'k_journal',
  };
  return { server, created, env };
}

function input(names: string[], fileName = 'pets.ndjson'): string {
  const folder = mkdtempSync(join(tmpdir(), 'petstore-journal-'));
  const path = join(folder, fileName);
  writeFileSync(path, names.map((name) => `{"name":"${name}","categoryId":1}\n`).join(''));
  return path;
}

function journalNamed(stderr: string): string {
  const path = journalOnStderr(stderr);
  expect(path, stderr).toBeDefined();
  return path!;
}

const names = (out: string) =>
  out
    .trimEnd()
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { name: string }).name)
    .sort();

describe('pets import keeps a journal, and --resume completes the run', () => {
  it('journals each record before sending it, with its key, and its outcome after', async () => {
    const { env, server } = await service();
    const file = input(['A', 'bad1', 'C']);
    const io = fakeIO();
    expect(await main(['pets', 'import', file, '--concurrency', '1'], io, env)).toBe(5);
    const path = journalNamed(io.err());
    // In the user's state folder, not beside the input.
    expect(path.startsWith(join(env.HOME, '.local', 'state', 'petstore', 'journals') + '/')).toBe(
      true,
    );
    const journal = await readJournal(path);
    expect(journal.records).toBe(3);
    expect([...journal.states].map(([record, state]) => [record, state.outcome])).toEqual([
      [1, 'created'],
      [2, 'failed'],
      [3, 'created'],
    ]);
    // The key in the journal is the one each request carried.
    const keys = server.requests.map((request) => request.headers['idempotency-key']);
    expect([...journal.states.values()].map((state) => state.key)).toEqual(keys);
  });

  it('resumes: prints only what no run printed, leaves failed and unknown unless asked', async () => {
    const { env, created } = await service({ dropNames: new Set(['B']) });
    const file = input(['A', 'B', 'bad1', 'D']);
    const first = fakeIO();
    // B (record 2) is unknown, the first record not created: exit 7, as for a network error.
    expect(await main(['pets', 'import', file, '--concurrency', '1'], first, env)).toBe(7);
    expect(names(first.out())).toEqual(['A', 'D']);
    const path = journalNamed(first.err());

    const plain = fakeIO();
    expect(await main(['pets', 'import', '--resume', path], plain, env)).toBe(7);
    // A and D are on the first run's stdout already; nothing is sent again.
    expect(plain.out()).toBe('');
    expect(plain.err()).toContain(
      // The batch names its journal in the journals folder.
      `"hint":"Complete the run with: petstore --base-url ${env.PETSTORE_BASE_URL} pets import --resume ${(await readJournal(path)).batch} --retry-unknown --retry-failed`,
    );
    expect(plain.err()).toContain('2 pets were printed by earlier runs of this journal');
    expect(created).toEqual(['A', 'B', 'D']);

    const all = fakeIO();
    expect(await main(['pets', 'import', '--resume', path, '--print-all'], all, env)).toBe(7);
    expect(names(all.out())).toEqual(['A', 'D']);

    const retried = fakeIO();
    const args = ['pets', 'import', '--resume', path, '--retry-unknown'];
    // bad1 stays rejected (not retried without --retry-failed): exit 5, the code of a 400.
    expect(await main(args, retried, env)).toBe(5);
    // B was created before its answer was lost: its key makes the service answer, not create.
    expect(names(retried.out())).toEqual(['B']);
    expect(created).toEqual(['A', 'B', 'D']);
    // Every run's stdout together: one line per created record.
    expect(names(first.out() + plain.out() + retried.out())).toEqual(['A', 'B', 'D']);
  });

  it('a run of a named batch sends the keys of its first run: nothing is created twice', async () => {
    const { env, created, server } = await service({ dropNames: new Set(['B']) });
    // Two identical records are two pets: each position has a key of its own.
    const file = input(['A', 'B', 'A', 'C']);
    const args = ['pets', 'import', file, '--concurrency', '1', '--batch-id', 'job-7'];
    const first = fakeIO();
    expect(await main(args, first, env)).toBe(7);
    // Run again from scratch, as a CI job would on a fresh machine: no --resume.
    const again = fakeIO();
    expect(await main(args, again, env)).toBe(0);
    expect(created).toEqual(['A', 'B', 'A', 'C']);
    expect(names(again.out())).toEqual(['A', 'A', 'B', 'C']);
    const keys = server.requests.map((request) => String(request.headers['idempotency-key']));
    expect(new Set(keys.slice(0, 4)).size).toBe(4);
    expect(keys.slice(4)).toEqual(keys.slice(0, 4));
    // Records added at the end of the input are new positions, new keys: only they are created.
    const grown = input(['A', 'B', 'A', 'C', 'E']);
    expect(await main([...args.slice(0, 2), grown, ...args.slice(3)], fakeIO(), env)).toBe(0);
    expect(created).toEqual(['A', 'B', 'A', 'C', 'E']);
  });

  it('journals a record answered 5xx as unknown, not failed: only its key sends it again', async () => {
    const { env, created, server } = await service({ failNames: new Set(['B']) });
    const file = input(['A', 'B', 'C']);
    const first = fakeIO();
    // The 500's own exit code, 6: the run's first record not created.
    expect(await main(['pets', 'import', file, '--concurrency', '1'], first, env)).toBe(6);
    const path = journalNamed(first.err());
    const journal = await readJournal(path);
    expect(journal.states.get(2)?.outcome).toBe('unknown');
    expect(first.err()).toContain('--retry-unknown');
    // --retry-failed would send it with a new key (a new pet): it is not a failed record.
    const failedOnly = fakeIO();
    expect(
      await main(['pets', 'import', '--resume', path, '--retry-failed'], failedOnly, env),
    ).toBe(7);
    expect(server.requests).toHaveLength(3);
    const retried = fakeIO();
    expect(await main(['pets', 'import', '--resume', path, '--retry-unknown'], retried, env)).toBe(
      0,
    );
    expect(names(retried.out())).toEqual(['B']);
    expect(created).toEqual(['A', 'B', 'C']);
    // (And one read: the service's clock, asked before a key is sent again.)
    const posts = server.requests.filter((request) => request.method === 'POST');
    const keys = posts.map((request) => request.headers['idempotency-key']);
    expect(keys[3]).toBe(keys[1]);
  });

  it('--retry-unknown in a new run sends a record with no answer again, with its key', async () => {
    const { env, created, server } = await service({ dropNames: new Set(['B']) });
    const file = input(['A', 'B', 'C']);
    const io = fakeIO();
    const args = ['pets', 'import', file, '--concurrency', '1', '--retry-unknown'];
    expect(await main(args, io, env)).toBe(0);
    expect(names(io.out())).toEqual(['A', 'B', 'C']);
    expect(created).toEqual(['A', 'B', 'C']);
    const keys = server.requests.map((request) => request.headers['idempotency-key']);
    expect(keys).toHaveLength(4);
    expect(keys[2]).toBe(keys[1]);
  });

  it('journals as sending only records that go out: a stop leaves none of the rest unknown', async () => {
    const { env, names: created } = await sandboxService();
    // Over the sandbox's 256 characters: refused (400).
    const file = input(['x'.repeat(300), 'B', 'C', 'D', 'E', 'F']);
    const first = fakeIO();
    const args = ['pets', 'import', file, '--concurrency', '1', '--fail-fast'];
    expect(await main(args, first, env)).toBe(5);
    const path = journalNamed(first.err());
    const states = (await readJournal(path)).states;
    // Only the record that went out (and was refused) was ever sent.
    expect([...states.keys()]).toEqual([1]);
    // Not unknown: a plain resume sends them, no --retry-unknown needed.
    const io = fakeIO();
    expect(await main(['pets', 'import', '--resume', path], io, env)).toBe(5);
    expect(names(io.out())).toEqual(['B', 'C', 'D', 'E', 'F']);
    expect((await created()).sort()).toEqual(['B', 'C', 'D', 'E', 'F']);
  });

  it('refuses to resume over an input that changed, and sends nothing', async () => {
    const { env, pets } = await sandboxService();
    const file = input(['A', 'B']);
    const first = fakeIO();
    expect(await main(['pets', 'import', file], first, env)).toBe(0);
    const path = journalNamed(first.err());
    writeFileSync(file, '{"name":"A","categoryId":1}\n{"name":"B2","categoryId":1}\n');
    const sent = (await pets()).length;
    const io = fakeIO({ tty: true });
    expect(await main(['pets', 'import', '--resume', path], io, env)).toBe(2);
    expect(io.err()).toContain(
      'the input changed since the journaled run: record 2 differs; nothing was sent',
    );
    expect(await pets()).toHaveLength(sent);
  });

  it('says what to do when the journal or its input is not what was expected', async () => {
    const { env, pets } = await sandboxService();
    const file = input(['A']);
    const first = fakeIO();
    expect(await main(['pets', 'import', file], first, env)).toBe(0);
    const path = journalNamed(first.err());
    const sent = (await pets()).length;
    const run = async (args: string[]) => {
      const io = fakeIO({ tty: true });
      expect(await main(['pets', 'import', ...args], io, env)).toBe(2);
      return io.err();
    };
    expect(await run(['--resume', file])).toContain(
      `${file} is not a petstore journal of this version`,
    );
    expect(await run([file, '--journal', file])).toContain('the journal named is the input file');
    const moved = `${file}.moved`;
    renameSync(file, moved);
    const lost = await run(['--resume', path]);
    expect(lost).toContain(`cannot read the input of the journaled run: cannot read ${file}`);
    expect(lost).toContain('give its new path as FILE');
    const found = fakeIO();
    expect(await main(['pets', 'import', '--resume', path, moved], found, env)).toBe(0);
    expect(await pets()).toHaveLength(sent);
  });

  it('a journal with a page gone bad past its header is said damaged on resume, nothing sent', async () => {
    const { env, pets } = await sandboxService();
    const file = input(Array.from({ length: 300 }, (_, i) => `P${i}`));
    const first = fakeIO();
    expect(await main(['pets', 'import', file], first, env)).toBe(0);
    const path = journalNamed(first.err());
    // The root page of the rows of the input, overwritten as a bad disk block would be.
    const db = new DatabaseSync(path);
    const { rootpage } = db
      .prepare("SELECT rootpage FROM sqlite_master WHERE name = 'inputs'")
      .get() as { rootpage: number };
    const pageSize = (db.prepare('PRAGMA page_size').get() as { page_size: number }).page_size;
    db.close();
    const bytes = readFileSync(path);
    bytes.fill(0x5a, (rootpage - 1) * pageSize, rootpage * pageSize);
    writeFileSync(path, bytes);
    const sent = (await pets()).length;
    const io = fakeIO({ tty: true });
    expect(await main(['pets', 'import', '--resume', path], io, env)).toBe(2);
    expect(io.err()).toContain(`the journal ${path} is damaged`);
    expect(io.err()).not.toContain('bug');
    expect(await pets()).toHaveLength(sent);
  });

  it('never overwrites a journal', async () => {
    const { env } = await sandboxService();
    const file = input(['A']);
    const journal = join(mkdtempSync(join(tmpdir(), 'petstore-j-')), 'run.journal');
    writeFileSync(journal, 'precious\n');
    const io = fakeIO({ tty: true });
    expect(await main(['pets', 'import', file, '--journal', journal], io, env)).toBe(2);
    expect(io.err()).toContain(`the journal ${journal} already exists`);
    expect(readFileSync(journal, 'utf8')).toBe('precious\n');
  });

  it('prints on resume a pet its run created but was killed before printing', async () => {
    const { env, pets } = await sandboxService();
    const file = input(['A', 'B']);
    const first = fakeIO();
    expect(await main(['pets', 'import', file, '--concurrency', '1'], first, env)).toBe(0);
    const path = journalNamed(first.err());
    // As if killed between B's "created" and its line on stdout.
    editJournal(path, 'UPDATE records SET printed = 0 WHERE record = 2');
    const io = fakeIO();
    expect(await main(['pets', 'import', '--resume', path], io, env)).toBe(0);
    expect(names(io.out())).toEqual(['B']);
    expect(await pets()).toHaveLength(2);
  });

  it('an unknown record refused when sent again with its key stays unknown: never sent with a new key', async () => {
    const refusing = { now: false };
    const { env, created, server } = await service({
      dropNames: new Set(['B']),
      refusesBeforeKeys: (name) => refusing.now && name === 'B',
    });
    const file = input(['A', 'B']);
    const first = fakeIO();
    expect(await main(['pets', 'import', file, '--concurrency', '1'], first, env)).toBe(7);
    const path = journalNamed(first.err());
    // The service created B, its answer was lost; now it refuses B before looking its key up.
    refusing.now = true;
    const refused = fakeIO();
    expect(await main(['pets', 'import', '--resume', path, '--retry-unknown'], refused, env)).toBe(
      5,
    );
    expect((await readJournal(path)).states.get(2)).toMatchObject({
      outcome: 'unknown',
      attempt: 1,
    });
    // Asked to retry the failed too: B is not failed, so no new key goes out for it.
    refusing.now = false;
    const again = fakeIO();
    const args = ['pets', 'import', '--resume', path, '--retry-failed', '--retry-unknown'];
    expect(await main(args, again, env)).toBe(0);
    expect(created).toEqual(['A', 'B']);
    const keysOfB = server.requests
      .filter((request) => request.body.includes('"B"'))
      .map((request) => request.headers['idempotency-key']);
    expect(new Set(keysOfB).size).toBe(1);
  });

  it('completes a record whose answer was lost: sent again with its key, answered from the first', async () => {
    const { env, created } = await service({ dropNames: new Set(['B']) });
    const file = input(['A', 'B']);
    const first = fakeIO();
    expect(await main(['pets', 'import', file, '--concurrency', '1'], first, env)).toBe(7);
    const path = journalNamed(first.err());
    expect((await readJournal(path)).states.get(2)?.outcome).toBe('unknown');
    const io = fakeIO();
    expect(await main(['pets', 'import', '--resume', path, '--retry-unknown'], io, env)).toBe(0);
    expect(names(io.out())).toEqual(['B']);
    // Sent again with its key: the service answered from the first request.
    expect(created).toEqual(['A', 'B']);
    expect((await readJournal(path)).states.get(2)?.outcome).toBe('created');
  });
});

describe('a journal is resumed by one run at a time, against the service it was written for', () => {
  async function finishedRun(names: string[]) {
    const { env } = await sandboxService();
    const file = input(names);
    const first = fakeIO();
    expect(await main(['pets', 'import', file], first, env)).toBe(0);
    return { env, path: journalNamed(first.err()) };
  }

  it('refuses while another run holds the journal, and resumes once it is released', async () => {
    const { env, path } = await finishedRun(['A']);
    const held = await JournalStore.open(path);
    const busy = fakeIO({ tty: true });
    expect(await main(['pets', 'import', '--resume', path], busy, env)).toBe(2);
    expect(busy.err()).toContain(`the journal ${path} is in use by another petstore run`);
    expect(busy.err()).toContain('there is nothing to clear');
    await held.close();
    // Nothing but the journal: no lock or owner file beside it (the inputs' locks, which stay
    // in place by design, live in their own folder).
    const beside = readdirSync(dirname(path)).filter((name) => !name.endsWith('.journal'));
    expect(beside.filter((name) => name !== '.inputs')).toEqual([]);
    const io = fakeIO();
    expect(await main(['pets', 'import', '--resume', path], io, env)).toBe(0);
  });

  it('refuses to resume against another service, sending nothing', async () => {
    const { path } = await finishedRun(['A', 'B']);
    const other = await sandboxService();
    const io = fakeIO({ tty: true });
    expect(await main(['pets', 'import', '--resume', path, '--retry-unknown'], io, other.env)).toBe(
      2,
    );
    expect(io.err()).toContain('the journaled run sent to');
    expect(io.err()).toContain('nothing was sent');
    expect(await other.pets()).toHaveLength(0);
  });

  it('a key the service refuses as reused says what to do', async () => {
    const server = await startTestServer((_req, res) =>
      sendJson(
        res,
        422,
        '{"code":"idempotency_key_reused","message":"this Idempotency-Key was sent with a different body","status":422}',
      ),
    );
    servers.push(server);
    const env = {
      HOME: freshHome(),
      PETSTORE_BASE_URL: `${server.url}/v1`,
      PETSTORE_API_KEY: 'sk_test_k_key',
    };
    const io = fakeIO({ tty: true });
    const args = ['pets', 'add', '--name', 'Tom', '--category-id', '1', '--idempotency-key', 'k1'];
    expect(await main(args, io, env)).toBe(5);
    expect(io.err()).toContain('hint: An Idempotency-Key stands for one request');
  });
});

describe('--dry-run sends nothing and never shows the key', () => {
  it('pets add: the request, key redacted, with its Idempotency-Key', async () => {
    const { env, server } = await service();
    const io = fakeIO();
    const args = ['pets', 'add', '--name', 'Rex', '--category-id', '1', '--dry-run'];
    expect(await main([...args, '--idempotency-key', 'key-1'], io, env)).toBe(0);
    expect(JSON.parse(io.out())).toEqual({
      method: 'POST',
      url: `${server.url}/v1/pets`,
      headers: expect.objectContaining({
        authorization: 'Bearer ****',
        'idempotency-key': 'key-1',
        'content-type': 'application/json',
      }) as unknown,
      body: { name: 'Rex', categoryId: 1 },
    });
    expect(io.out() + io.err()).not.toContain('k_journal');
    expect(server.requests).toHaveLength(0);
  });

  it('pets import: one line per request, no journal, nothing sent', async () => {
    const { env, server } = await service();
    const io = fakeIO();
    const file = input(['A', 'B', 'C']);
    expect(await main(['pets', 'import', file, '--dry-run'], io, env)).toBe(0);
    const lines = io
      .out()
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { record: number; body: unknown });
    expect(lines.map((line) => [line.record, line.body])).toEqual([
      [1, { name: 'A', categoryId: 1 }],
      [2, { name: 'B', categoryId: 1 }],
      [3, { name: 'C', categoryId: 1 }],
    ]);
    expect(io.err()).not.toContain('Journal');
    expect(server.requests).toHaveLength(0);
  });
});

describe('the command a bulk run says completes it', () => {
  it('reaches the same service from any shell: it names the profile the run used', async () => {
    const { env, created } = await service({ dropNames: new Set(['B']) });
    const base = env.PETSTORE_BASE_URL;
    const home = { HOME: env.HOME, PETSTORE_API_KEY: env.PETSTORE_API_KEY };
    expect(await main(['profile', 'set', 'faulty', '--base-url', base], fakeIO(), home)).toBe(0);
    const file = input(['A', 'B', 'C']);
    const first = fakeIO({ tty: true });
    expect(await main(['--profile', 'faulty', 'pets', 'import', file], first, home)).toBe(7);
    const hint = /^hint: Complete the run with: (petstore .*?) \(/m.exec(first.err())?.[1];
    expect(hint).toMatch(/^petstore --profile faulty pets import --resume \S+ --retry-unknown$/);
    expect(first.err()).toMatch(
      /^Journal: \S+ \(if the run stops, complete it with: petstore --profile faulty pets import --resume \S+ --retry-unknown\)$/m,
    );
    // Run as given, where the active profile is another one: it completes the run.
    const resumed = fakeIO();
    expect(await main(hint!.split(' ').slice(1), resumed, home)).toBe(0);
    expect(created).toEqual(['A', 'B', 'C']);
  });
});
