import { request } from 'node:http';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import {
  openSandboxDatabase,
  startSandboxServer,
  type RunningSandbox,
} from '../../src/sandbox/server.js';

/** The sandbox stores what it is sent exactly, or refuses it: never something else. */

const KEY = 'sk_sandbox_edges_key';
const running: RunningSandbox[] = [];
afterEach(async () => {
  for (const sandbox of running.splice(0)) await sandbox.close();
});

async function start(database = ':memory:', log?: (line: string) => void, busyTimeoutMs?: number) {
  const sandbox = await startSandboxServer({
    host: '127.0.0.1',
    port: 0,
    database,
    apiKeys: [KEY],
    log,
    busyTimeoutMs,
  });
  running.push(sandbox);
  return sandbox;
}

/** A raw POST: headers as given (repeated ones too), the body as given. */
function post(
  url: string,
  body: string,
  extraHeaders: [string, string][] = [],
): Promise<{
  status: number;
  json: Record<string, unknown>;
  text: string;
  headers: Record<string, string | string[] | undefined>;
}> {
  const headers: string[] = [
    'host',
    new URL(url).host,
    'authorization',
    `Bearer ${KEY}`,
    'content-type',
    'application/json',
    ...extraHeaders.flat(),
  ];
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        try {
          resolve({
            status: res.statusCode ?? 0,
            json: JSON.parse(text) as Record<string, unknown>,
            text,
            headers: res.headers,
          });
        } catch (error) {
          reject(error instanceof Error ? error : new Error(String(error)));
        }
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function getPet(base: string, id: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${base}/pets/${String(id)}`, {
    headers: { authorization: `Bearer ${KEY}` },
  });
  return (await response.json()) as Record<string, unknown>;
}

const lone = fc.constantFrom('\ud800', '\udfff', 'a\ud83d', '\ude00b');
const invisible = fc
  .array(
    fc.constantFrom(
      ...['\u200b', '\u200d', '\ufeff', '\u202e', ' ', '\u3000', '\u00ad', '\t'],
      // Default-ignorable, combining marks alone, the blank braille pattern.
      ...['\u034f', '\ufe0f', '\u17b4', '\u17b5', '\u3164', '\u115f', '\u0301', '\u20dd', '\u2800'],
    ),
    {
      minLength: 1,
      maxLength: 6,
    },
  )
  .map((chars) => chars.join(''));

describe('names', () => {
  it('are stored exactly as sent, or refused with 400: never changed', async () => {
    const sandbox = await start();
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string({ unit: 'binary', maxLength: 300 }),
          fc.string({ unit: 'grapheme', maxLength: 300 }),
          lone,
          invisible,
          fc.tuple(fc.string({ maxLength: 5 }), lone).map(([a, b]) => a + b),
        ),
        async (name) => {
          const created = await post(
            `${sandbox.apiBaseUrl}/pets`,
            JSON.stringify({ name, categoryId: 1 }),
          );
          if (created.status === 201) {
            expect((await getPet(sandbox.apiBaseUrl, created.json.id)).name).toBe(name);
            expect(Array.from(name).length).toBeLessThanOrEqual(256);
          } else {
            expect(created.status).toBe(400);
            expect(created.json.code).toBe('invalid_name');
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('are refused when they hold a lone surrogate, or nothing visible', async () => {
    const sandbox = await start();
    for (const name of [
      ...['\ud800', 'Rex\udfff', '\u200b\u200d', ' \u3000 ', '\u202e'],
      ...['\u034f', '\ufe0f\ufe0f', '\u17b4\u17b5', '\u2800', '\u0301\u0308', '\u3164 \u115f'],
    ]) {
      const answer = await post(
        `${sandbox.apiBaseUrl}/pets`,
        JSON.stringify({ name, categoryId: 1 }),
      );
      expect(answer, JSON.stringify(name)).toMatchObject({
        status: 400,
        json: { code: 'invalid_name' },
      });
    }
    // The limit counts characters: 256 astral ones (512 UTF-16 units) fit, one more does not.
    const astral = '😀'.repeat(256);
    expect(
      (await post(`${sandbox.apiBaseUrl}/pets`, JSON.stringify({ name: astral, categoryId: 1 })))
        .status,
    ).toBe(201);
    expect(
      (
        await post(
          `${sandbox.apiBaseUrl}/pets`,
          JSON.stringify({ name: `${astral}x`, categoryId: 1 }),
        )
      ).status,
    ).toBe(400);
  });
});

describe('Idempotency-Key', () => {
  it('is taken only as one header of 1 to 255 visible ASCII characters', async () => {
    const sandbox = await start();
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string({
            unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)),
            minLength: 1,
            maxLength: 300,
          }),
          fc.string({
            unit: fc.integer({ min: 0x80, max: 0xff }).map((c) => String.fromCharCode(c)),
            minLength: 1,
            maxLength: 10,
          }),
        ),
        async (key) => {
          const answer = await post(
            `${sandbox.apiBaseUrl}/pets`,
            JSON.stringify({ name: 'Rex', categoryId: 1 }),
            [['idempotency-key', key]],
          );
          const valid = /^[\x21-\x7e]{1,255}$/.test(key);
          expect(answer.status, key).toBe(valid ? 201 : 400);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('sent twice in one request is refused, not joined', async () => {
    const sandbox = await start();
    const answer = await post(
      `${sandbox.apiBaseUrl}/pets`,
      JSON.stringify({ name: 'Rex', categoryId: 1 }),
      [
        ['idempotency-key', 'A1'],
        ['idempotency-key', 'B1'],
      ],
    );
    expect(answer).toMatchObject({ status: 400, json: { code: 'invalid_idempotency_key' } });
  });
});

describe('a body that gives a field twice', () => {
  it('is refused with 400 duplicate_field, however the key is spelled, and nothing is stored', async () => {
    const sandbox = await start();
    for (const body of [
      '{"name":"first","name":"second","categoryId":1}',
      '{"name":"Rex","categoryId":1,"categoryId":2}',
      '{"name":"Rex","n\\u0061me":"Max","categoryId":1}',
    ]) {
      const answer = await post(`${sandbox.apiBaseUrl}/pets`, body);
      expect(answer, body).toMatchObject({ status: 400, json: { code: 'duplicate_field' } });
    }
    const nested = '{"name":"Rex","categoryId":1,"status":"sold"}';
    expect((await post(`${sandbox.apiBaseUrl}/pets`, nested)).status).toBe(201);
  });
});

describe('categoryId', () => {
  it('an int64 in exponent form is that integer, exactly', async () => {
    const sandbox = await start();
    for (const [literal, id] of [
      ['1e16', '10000000000000000'],
      ['1.0e18', '1000000000000000000'],
      ['1E18', '1000000000000000000'],
      ['4.611686018427387904e18', '4611686018427387904'],
    ]) {
      const answer = await post(
        `${sandbox.apiBaseUrl}/pets`,
        `{"name":"Rex","categoryId":${literal}}`,
      );
      expect(answer.status, literal).toBe(201);
      expect(answer.text, literal).toContain(`"categoryId":${id}`);
    }
  });

  it('a number that is no integer is refused, however close to one', async () => {
    const sandbox = await start();
    for (const literal of [
      '1.0000000000000000001',
      '2.9999999999999999',
      '1e-400',
      '9007199254740993.5',
    ]) {
      const answer = await post(
        `${sandbox.apiBaseUrl}/pets`,
        `{"name":"Rex","categoryId":${literal}}`,
      );
      expect(answer, literal).toMatchObject({ status: 400, json: { code: 'invalid_category_id' } });
    }
    expect(
      (await post(`${sandbox.apiBaseUrl}/pets`, '{"name":"Rex","categoryId":12.0}')).status,
    ).toBe(201);
  });
});

describe('a database file deleted while the sandbox serves it', () => {
  it('refuses every write with 503, says so once on the operator’s stderr, and still reads', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'petstore-gone-'));
    const lines: string[] = [];
    const sandbox = await start(join(folder, 'sandbox.db'), (line) => lines.push(line));
    const base = sandbox.apiBaseUrl;
    expect((await post(`${base}/pets`, '{"name":"Rex","categoryId":1}')).status).toBe(201);
    rmSync(join(folder, 'sandbox.db'));
    for (const name of ['Tom', 'Kit']) {
      const answer = await post(`${base}/pets`, JSON.stringify({ name, categoryId: 1 }));
      expect(answer).toMatchObject({ status: 503, json: { code: 'database_gone', status: 503 } });
    }
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('was deleted or replaced');
    expect((await getPet(base, 1)).name).toBe('Rex');
  });

  it('a deleted write-ahead log: the writes it acknowledged are saved, later ones refused', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'petstore-gone-'));
    const file = join(folder, 'sandbox.db');
    const lines: string[] = [];
    const sandbox = await start(file, (line) => lines.push(line));
    const base = sandbox.apiBaseUrl;
    expect((await post(`${base}/pets`, '{"name":"Rex","categoryId":1}')).status).toBe(201);
    rmSync(`${file}-wal`);
    rmSync(`${file}-shm`);
    for (const name of ['Tom', 'Kit']) {
      const answer = await post(`${base}/pets`, JSON.stringify({ name, categoryId: 1 }));
      expect(answer).toMatchObject({ status: 503, json: { code: 'database_gone', status: 503 } });
    }
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('write-ahead log');
    // What a crash now would leave: the database file alone, read by another connection.
    const reader = new DatabaseSync(file, { readOnly: true });
    try {
      expect(reader.prepare('SELECT name FROM pets').all()).toEqual([{ name: 'Rex' }]);
    } finally {
      reader.close();
    }
  });

  it('a healthy log is never taken for a lost one: many writes, checkpoints among them', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'petstore-wal-'));
    const sandbox = await start(join(folder, 'sandbox.db'));
    for (let i = 0; i < 1200; i++) {
      const answer = await post(`${sandbox.apiBaseUrl}/pets`, `{"name":"p${i}","categoryId":1}`);
      expect(answer.status).toBe(201);
    }
  });
});

describe('a database another process holds locked', () => {
  it('answers a write 503 database_busy with Retry-After, writes nothing, and takes the key again once free', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'petstore-busy-'));
    const file = join(folder, 'sandbox.db');
    const lines: string[] = [];
    const sandbox = await start(file, (line) => lines.push(line), 50);
    const base = sandbox.apiBaseUrl;
    expect((await post(`${base}/pets`, '{"name":"Before","categoryId":1}')).status).toBe(201);
    const other = new DatabaseSync(file);
    try {
      other.exec('BEGIN IMMEDIATE'); // holds the write lock, as another sandbox mid-write would
      const key: [string, string] = ['idempotency-key', 'busy-attempt-1'];
      const refused = await post(`${base}/pets`, '{"name":"Locked","categoryId":1}', [key]);
      expect(refused).toMatchObject({ status: 503, json: { code: 'database_busy', status: 503 } });
      expect(refused.headers['retry-after']).toBe('1');
      expect(lines.filter((line) => line.includes('locked by another process'))).not.toEqual([]);
      other.exec('ROLLBACK');
      // Nothing of the refused write was kept: the same key creates the pet now, once.
      const retried = await post(`${base}/pets`, '{"name":"Locked","categoryId":1}', [key]);
      expect(retried.status).toBe(201);
      expect(retried.headers['idempotent-replayed']).toBeUndefined();
      const names = (
        other.prepare("SELECT name FROM pets WHERE name = 'Locked'").all() as { name: string }[]
      ).map((row) => row.name);
      expect(names).toEqual(['Locked']);
    } finally {
      other.close();
    }
  });
});

describe('several processes on one sandbox file', () => {
  /** The fcntl locks this process holds on the files (Linux: /proc/locks), by inode. */
  function locksHeldOn(paths: string[]): number {
    const inodes = new Set(paths.map((path) => String(statSync(path).ino)));
    return readFileSync('/proc/locks', 'utf8')
      .split('\n')
      .filter((line) => {
        const fields = line.trim().split(/\s+/);
        return fields[4] === String(process.pid) && inodes.has(fields[5]?.split(':')[2] ?? '');
      }).length;
  }

  it.runIf(existsSync('/proc/locks'))(
    'a write never drops this process’s lock on the shared index (-shm) by opening it outside SQLite',
    async () => {
      const file = join(mkdtempSync(join(tmpdir(), 'petstore-shm-')), 'sandbox.db');
      const sandbox = await start(file);
      for (let i = 0; i < 3; i++) {
        expect(
          (await post(`${sandbox.apiBaseUrl}/pets`, `{"name":"p${i}","categoryId":1}`)).status,
        ).toBe(201);
      }
      // SQLite holds a read lock on the index while the connection is open; a descriptor of it
      // opened and closed by anything else in the process would have dropped it (then another
      // process may reset the index under this one's memory map: SIGBUS).
      expect(locksHeldOn([`${file}-shm`])).toBeGreaterThan(0);
    },
  );

  // That the open waits (and gets a lock let go meanwhile) is retryTransient's (test/core/sqlite.test.ts).
  it('a file another process holds past the wait is reported as in use, never as damaged', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'petstore-held-')), 'sandbox.db');
    const other = new DatabaseSync(file);
    other.exec('PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE');
    try {
      let error: unknown;
      try {
        openSandboxDatabase(file, { busyTimeoutMs: 50 });
      } catch (caught) {
        error = caught;
      }
      expect(error).toMatchObject({ status: 503, code: 'database_busy' });
      expect((error as Error).message).toContain('in use by another process');
      expect((error as { hint?: string }).hint).not.toContain('mv ');
    } finally {
      other.close();
    }
    // Free again: it opens.
    openSandboxDatabase(file, { busyTimeoutMs: 50 }).close();
  });

  it('only a file that is no database is called damaged, with the advice to move it away', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'petstore-bad-')), 'sandbox.db');
    writeFileSync(file, Buffer.alloc(8192, 0x41));
    expect(() => openSandboxDatabase(file, {})).toThrow(/it is damaged/);
  });
});
