import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { freshHome, runCli } from '../helpers/run-cli.js';
import { serveSandbox, type ServedSandbox } from '../helpers/serve-sandbox.js';
import { stderrText } from '../helpers/stderr-text.js';

const KEY = 'k_served_sandbox';

describe('the built-in sandbox profile, on a fresh machine', () => {
  // Each test has a machine of its own: no test depends on what another added.
  let env: Record<string, string>;
  beforeEach(() => {
    env = { HOME: freshHome() };
  });

  it('adds then lists a pet with nothing configured, and keeps it for the next run', async () => {
    const added = await runCli(['pets', 'add', '--name', 'Rex', '--category-id', '1', '--json'], {
      env,
    });
    expect(added.code).toBe(0);
    const pet = JSON.parse(added.stdout) as { id: number; name: string };
    expect(pet).toMatchObject({ name: 'Rex', categoryId: 1 });
    expect(typeof pet.id).toBe('number');
    const notices = added.stderr.split('\n').filter((line) => line.includes('local sandbox'));
    // stderr a pipe, the output JSON: the note is a JSON object, as every stderr line.
    expect(notices).toEqual([
      '{"note":"using the local sandbox (no profile chosen: petstore profile use NAME)"}',
    ]);

    const listed = await runCli(['pets', 'list', '--json'], { env });
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([pet]);
  });

  it('accepts the key of PETSTORE_API_KEY (a CI job’s, for another profile) and masks it', async () => {
    const ciKey = 'sk_live_ci_job_key_4242';
    const withKey = { ...env, PETSTORE_API_KEY: ciKey };
    const listed = await runCli(['--profile', 'sandbox', 'pets', 'list', '--json', '-v'], {
      env: withKey,
    });
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([]);
    expect(listed.stdout + listed.stderr).not.toContain(ciKey);
  });

  it('answers an Idempotency-Key sent again by a later run with the first answer', async () => {
    // Each run starts the sandbox with a key of its own; the Idempotency-Key must outlive it.
    const add = ['-q', 'pets', 'add', '--name', 'Once', '--category-id', '1', '--json'];
    const args = [...add, '--idempotency-key', 'k-again-1'];
    const first = await runCli(args, { env });
    const again = await runCli(args, { env });
    expect([first.code, again.code]).toEqual([0, 0]);
    expect(again.stdout).toBe(first.stdout);
    const listed = await runCli(['pets', 'list', '--json'], { env });
    expect((JSON.parse(listed.stdout) as unknown[]).length).toBe(1);
  });

  it('a bulk input run again as the same batch creates nothing twice; as a new run, again', async () => {
    const input =
      '{"name":"A","categoryId":1}\n{"name":"A","categoryId":1}\n{"name":"B","categoryId":2}\n';
    const args = ['-q', 'pets', 'import', '-', '--json', '--concurrency', '1'];
    const named = { ...env, PETSTORE_BATCH_ID: 'e2e-batch-1' };
    const first = await runCli(args, { env: named, input });
    const again = await runCli(args, { env: named, input });
    expect([first.code, again.code]).toEqual([0, 0]);
    expect(again.stdout).toBe(first.stdout);
    const count = async () =>
      (JSON.parse((await runCli(['pets', 'list', '--json'], { env })).stdout) as unknown[]).length;
    expect(await count()).toBe(3);
    // Unnamed, the same input again is refused as imported before: with --again, it is a
    // batch of its own, another three pets.
    const refused = await runCli(args, { env, input });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('standard input was imported in full before');
    expect(await count()).toBe(3);
    expect((await runCli([...args, '--again'], { env, input })).code).toBe(0);
    expect(await count()).toBe(6);
  });

  it('works with a proxy set for the network (HTTP_PROXY): the sandbox is never proxied', async () => {
    const result = await runCli(['-q', 'pets', 'list', '--json'], {
      env: { ...env, HTTP_PROXY: 'http://127.0.0.1:9', HTTPS_PROXY: 'http://127.0.0.1:9' },
    });
    expect(result).toMatchObject({ code: 0, stdout: '[]\n', stderr: '' });
  });

  it('says nothing about the profile when it is chosen explicitly', async () => {
    const result = await runCli(['--profile', 'sandbox', 'pets', 'list'], { env });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
  });

  it('gives each exit code the spec can produce', async () => {
    const added = await runCli(['pets', 'add', '--name', 'Kit', '--category-id', '2', '--json'], {
      env,
    });
    const { id } = JSON.parse(added.stdout) as { id: number };
    expect((await runCli(['pets', 'get', String(id), '-q'], { env })).code).toBe(0);
    expect((await runCli(['pets', 'list', '--limit', '0'], { env })).code).toBe(2);
    // Exit 3 (a refused key) comes from a served sandbox (below): the embedded one accepts
    // the key of PETSTORE_API_KEY, whatever it is.
    expect((await runCli(['pets', 'get', '424242'], { env })).code).toBe(4);
    const tooLong = await runCli(
      ['pets', 'add', '--name', 'x'.repeat(300), '--category-id', '1', '-o', 'table'],
      { env },
    );
    expect(tooLong.code).toBe(5);
    expect(tooLong.stderr).toContain('"name" must be at most 256 characters');
  });

  it('sandbox reset empties it, and asks before doing so', async () => {
    await runCli(['pets', 'add', '--name', 'Gone', '--category-id', '1'], { env });
    const refused = await runCli(['sandbox', 'reset'], { env });
    expect(refused.code).toBe(2);
    const reset = await runCli(['sandbox', 'reset', '--yes'], { env });
    expect(reset.code).toBe(0);
    expect(reset.stderr).toContain('Sandbox emptied: 1 pet(s) deleted.');
    expect((await runCli(['pets', 'list', '--json'], { env })).stdout).toBe('[]\n');
  });

  it('keeps every pet when two processes add at once', async () => {
    const concurrentHome = env.HOME!;
    const addMany = async (prefix: string) => {
      for (let i = 0; i < 8; i++) {
        const result = await runCli(
          ['pets', 'add', '--name', `${prefix}${i}`, '--category-id', '1'],
          {
            env: { HOME: concurrentHome },
          },
        );
        expect(result.code, result.stderr).toBe(0);
      }
    };
    await Promise.all([addMany('a'), addMany('b')]);
    const listed = await runCli(['pets', 'list', '--limit', '100', '--json'], {
      env: { HOME: concurrentHome },
    });
    const pets = JSON.parse(listed.stdout) as { id: number }[];
    expect(pets).toHaveLength(16);
    expect(new Set(pets.map((pet) => pet.id)).size).toBe(16);
  });
});

describe('petstore sandbox serve', () => {
  let served: ServedSandbox;
  let env: Record<string, string>;

  beforeAll(async () => {
    served = await serveSandbox(['--memory', '--api-key', KEY, '--id-start', '9007199254740993']);
    env = {
      HOME: freshHome(),
      PETSTORE_BASE_URL: served.apiBaseUrl,
      PETSTORE_QUICKSTART_URL: served.quickstartUrl,
      PETSTORE_API_KEY: KEY,
    };
  });
  afterAll(() => served.stop('SIGTERM'));

  it('prints its URLs and key on stderr', () => {
    expect(served.apiBaseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(served.quickstartUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/quickstart$/);
    expect(served.stderr()).toContain(`"apiKeys":["${KEY}"]`);
  });

  it('serves every command, with ids beyond 2^53 exact', async () => {
    const added = await runCli(
      [
        'pets',
        'add',
        '--name',
        'Big',
        '--category-id',
        '9223372036854775807',
        '--status',
        'sold',
        '--json',
      ],
      { env },
    );
    expect(added.stdout).toBe(
      '{"id":9007199254740993,"name":"Big","categoryId":9223372036854775807,"status":"sold"}\n',
    );

    const fetched = await runCli(['pets', 'get', '9007199254740993', '--json'], { env });
    expect(fetched.code).toBe(0);
    expect(fetched.stdout).toBe(added.stdout);
    expect(stderrText(fetched.stderr).match(/^warning: .*deprecated/gm)).toHaveLength(1);

    const listed = await runCli(['pets', 'list', '--status', 'sold', '-o', 'ndjson'], { env });
    expect(listed.stdout).toBe(added.stdout);

    const table = await runCli(['pets', 'list', '-o', 'table'], { env });
    expect(table.stdout).toContain('9007199254740993');
    expect(table.stdout).toContain('9223372036854775807');

    const message = await runCli(['message', 'send', 'hello'], { env });
    expect(message.code).toBe(0);
    expect(JSON.parse(message.stdout)).toMatchObject({ message: 'hello', status: 'queued' });
    expect(message.stderr).toContain('queued: accepted by the service, not yet delivered');
  });

  it('maps its errors to the contract exit codes', async () => {
    expect((await runCli(['pets', 'list', '--status', 'lost'], { env })).code).toBe(2);
    expect(
      (await runCli(['pets', 'list'], { env: { ...env, PETSTORE_API_KEY: 'sk_test_nope_key' } }))
        .code,
    ).toBe(3);
    expect((await runCli(['pets', 'get', '1'], { env })).code).toBe(4);
    expect(
      (await runCli(['pets', 'add', '--name', 'x'.repeat(257), '--category-id', '1'], { env }))
        .code,
    ).toBe(5);
  });
});

describe('one sandbox file shared by two serving processes', () => {
  it('ends with 400 pets and 400 distinct ids after 200 concurrent adds to each', async () => {
    const database = join(mkdtempSync(join(tmpdir(), 'sandbox-shared-')), 'shared.db');
    const servers = await Promise.all([
      serveSandbox(['--db', database, '--api-key', KEY]),
      serveSandbox(['--db', database, '--api-key', KEY]),
    ]);
    try {
      const add = (base: string, i: number) =>
        fetch(`${base}/pets`, {
          method: 'POST',
          headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
          body: JSON.stringify({ name: `pet${i}`, categoryId: i }),
        }).then((response) => response.status);
      const statuses: number[] = [];
      // 200 requests to each server, 20 at a time per server, both servers at once.
      for (let batch = 0; batch < 10; batch++) {
        const wave = servers.flatMap((server) =>
          Array.from({ length: 20 }, (_, i) => add(server.apiBaseUrl, batch * 20 + i)),
        );
        statuses.push(...(await Promise.all(wave)));
      }
      expect(statuses.filter((status) => status === 201)).toHaveLength(400);

      // The interface pages only by limit (at most 100), so the file is counted directly.
      const ids = new Set<number>();
      const { DatabaseSync } = process.getBuiltinModule('node:sqlite');
      const db = new DatabaseSync(database, { readOnly: true });
      for (const row of db.prepare('SELECT id FROM pets').all() as { id: number }[])
        ids.add(row.id);
      db.close();
      expect(ids.size).toBe(400);
    } finally {
      for (const server of servers) await server.stop();
    }
  });
});

describe('stopping', () => {
  it('exits 130 after a clean stop on Ctrl-C (SIGINT)', async () => {
    const served = await serveSandbox(['--memory']);
    expect(await served.stop('SIGINT')).toBe(130);
    expect(served.stderr()).toContain('interrupted; the sandbox was stopped cleanly');
  });

  it('exits 143 after a clean stop on SIGTERM (a service manager), as any command does', async () => {
    const served = await serveSandbox(['--memory']);
    expect(await served.stop('SIGTERM')).toBe(143);
    expect(served.stderr()).toContain('terminated; the sandbox was stopped cleanly');
  });
});
