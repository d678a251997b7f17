import { chmodSync, mkdirSync, mkdtempSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HistoryRecorder } from '../../src/history/recorder.js';
import { historyRetention, historySettings } from '../../src/history/settings.js';
import { HistoryStore } from '../../src/history/store.js';
import { entry } from '../helpers/history-entry.js';

const DAY = 86_400_000;

const file = () => join(mkdtempSync(join(tmpdir(), 'petstore-history-')), 'state', 'history.db');

describe('HistoryStore', () => {
  it('keeps entries in a private file and lists them newest first, as filtered', () => {
    const path = file();
    const store = HistoryStore.open(path);
    const old = new Date(Date.now() - 3 * DAY).toISOString();
    store.append([
      entry({ at: old, resultId: '1' }),
      entry({
        via: 'mcp',
        client: 'agent 1.0',
        outcome: 'refused',
        status: 0,
        resultId: undefined,
      }),
      entry({ profile: 'production', batch: 'b-1', record: 2, resultId: '3' }),
    ]);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(store.list({ limit: 10 }).map((e) => e.id)).toEqual([3, 2, 1]);
    expect(store.list({ limit: 10, since: Date.now() - DAY })).toHaveLength(2);
    expect(store.list({ limit: 10, via: 'mcp' })[0]).toMatchObject({ client: 'agent 1.0' });
    expect(store.list({ limit: 10, profile: 'production' })[0]).toMatchObject({ record: 2 });
    expect(store.list({ limit: 10, batch: 'b-1' })).toHaveLength(1);
    expect(store.list({ limit: 10, outcomes: ['refused', 'failed'] })).toHaveLength(1);
    expect(store.list({ limit: 1 })).toHaveLength(1);
    expect(store.get(1)).toMatchObject({ resultId: '1', at: old, batch: undefined });
    expect(store.get(99)).toBeUndefined();
    // Newest first by when each was sent, whatever order they were written in.
    store.append([entry({ at: new Date(Date.now() - DAY / 2).toISOString(), resultId: 'late' })]);
    expect(store.list({ limit: 10 }).map((e) => e.id)).toEqual([3, 2, 4, 1]);
    expect(store.prune(Date.now() - DAY)).toBe(1);
    expect(store.list({ limit: 10 }).map((e) => e.id)).toEqual([3, 2, 4]);
    store.close();
  });

  it('is shared: two stores on one file see each other’s entries', () => {
    const path = file();
    const a = HistoryStore.open(path);
    const b = HistoryStore.open(path);
    a.append([entry({ resultId: 'a' })]);
    b.append([entry({ resultId: 'b' })]);
    expect(a.list({ limit: 10 }).map((e) => e.resultId)).toEqual(['b', 'a']);
    a.close();
    b.close();
  });
});

describe('HistoryStore: finding writes, and a history made by an earlier petstore', () => {
  it('--pet finds the write that created the pet and those sent to it, no other', () => {
    const store = HistoryStore.open(file());
    store.append([
      entry({ resultId: '153', path: '/v1/pets' }),
      entry({ resultId: '153', path: '/quickstart/messages', operation: 'message send' }),
      entry({ resultId: undefined, path: '/v1/pets/153', operation: 'api' }),
      entry({ resultId: undefined, path: '/v1/pets/153?x=1', operation: 'api' }),
      entry({ resultId: undefined, path: '/v1/pets/1530', operation: 'api' }),
      entry({ resultId: '1530', path: '/v1/pets' }),
      entry({ resultId: '15_3', path: '/v1/pets' }),
    ]);
    expect(store.list({ limit: 10, pet: '153' }).map((e) => e.id)).toEqual([4, 3, 1]);
    // LIKE's wildcards in an id are taken as themselves.
    expect(store.list({ limit: 10, pet: '15_' }).map((e) => e.id)).toEqual([]);
    store.close();
  });

  it('--name finds the writes that sent a pet of that name exactly', () => {
    const store = HistoryStore.open(file());
    store.append([
      entry({ sent: '{"name":"Rex","categoryId":1}' }),
      entry({ sent: '{"name":"Rexy","categoryId":1}' }),
      entry({ sent: '{"length":3}', operation: 'message send' }),
      entry({ sent: undefined }),
    ]);
    expect(store.list({ limit: 10, name: 'Rex' }).map((e) => e.id)).toEqual([1]);
    store.close();
  });

  it('gains the user and host columns, its entries kept, and records them from then on', () => {
    const path = file();
    mkdirSync(dirname(path), { recursive: true });
    const old = new DatabaseSync(path);
    old.exec(`CREATE TABLE writes (id INTEGER PRIMARY KEY AUTOINCREMENT, at TEXT NOT NULL,
      via TEXT NOT NULL, client TEXT, profile TEXT, service TEXT, operation TEXT NOT NULL,
      method TEXT NOT NULL, path TEXT NOT NULL, idempotency_key TEXT, request_id TEXT,
      outcome TEXT NOT NULL, status INTEGER NOT NULL, result_id TEXT, batch TEXT,
      record INTEGER, sent TEXT, error TEXT, attempts INTEGER NOT NULL,
      duration_ms INTEGER NOT NULL)`);
    old.exec(`INSERT INTO writes (at, via, operation, method, path, outcome, status, attempts,
      duration_ms) VALUES ('2026-01-01T00:00:00.000Z', 'cli', 'pets add', 'POST', '/v1/pets',
      'created', 201, 1, 5)`);
    old.close();
    const store = HistoryStore.open(path);
    store.append([entry({ user: 'ops', host: 'build-7' })]);
    expect(store.get(1)).toMatchObject({ operation: 'pets add', user: undefined, host: undefined });
    expect(store.get(2)).toMatchObject({ user: 'ops', host: 'build-7' });
    store.close();
  });

  it('pruned with compact, gives the space back to the disk', () => {
    const path = file();
    const store = HistoryStore.open(path);
    const at = new Date(Date.now() - 2 * DAY).toISOString();
    const sent = JSON.stringify({ name: 'x'.repeat(200), categoryId: 1 });
    for (let i = 0; i < 20; i++) {
      store.append(Array.from({ length: 1000 }, () => entry({ at, sent })));
    }
    store.close();
    const before = statSync(path).size;
    const again = HistoryStore.open(path);
    expect(again.countOlder(Date.now() - DAY)).toBe(20_000);
    expect(again.prune(Date.now() - DAY, undefined, true)).toBe(20_000);
    again.close();
    expect(before).toBeGreaterThan(4_000_000);
    expect(statSync(path).size).toBeLessThan(100_000);
  });
});

describe('HistoryRecorder', () => {
  it('writes in batches and at close, and prunes past its retention when it opens', () => {
    const path = file();
    const seed = HistoryStore.open(path);
    seed.append([entry({ at: new Date(Date.now() - 10 * DAY).toISOString(), resultId: 'old' })]);
    seed.close();
    const warnings: string[] = [];
    const recorder = new HistoryRecorder(
      () => HistoryStore.open(path),
      (w) => warnings.push(w),
      7 * DAY,
    );
    for (let i = 0; i < 1200; i++) recorder.record(entry({ resultId: String(i) }));
    recorder.close();
    const store = HistoryStore.open(path);
    const kept = store.list({ limit: 5000 });
    expect(kept).toHaveLength(1200);
    expect(kept.some((e) => e.resultId === 'old')).toBe(false);
    store.close();
    expect(warnings).toEqual([]);
  });

  it('a store that cannot be written is one warning, and recording stops', () => {
    // A state folder that is a file: no one, root included, can make a store under it.
    const folder = mkdtempSync(join(tmpdir(), 'petstore-history-'));
    const notAFolder = join(folder, 'state');
    writeFileSync(notAFolder, 'a file');
    const warnings: string[] = [];
    let opened = 0;
    const recorder = new HistoryRecorder(
      () => {
        opened++;
        return HistoryStore.open(join(notAFolder, 'history.db'));
      },
      (w) => warnings.push(w),
      undefined,
    );
    recorder.record(entry());
    recorder.flush();
    recorder.record(entry());
    recorder.close();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^the history of writes could not be written \(.*(EEXIST|ENOTDIR).*\); this run.s writes go unrecorded$/,
    );
    expect(opened).toBe(1);
  });
});

describe('a history another program holds locked', () => {
  const holder = (path: string) => {
    const db = new DatabaseSync(path);
    db.exec('BEGIN IMMEDIATE');
    return db;
  };

  it('keeps the entries while it is held and writes them once it is free', () => {
    const path = file();
    HistoryStore.open(path).close();
    const other = holder(path);
    const warnings: string[] = [];
    const recorder = new HistoryRecorder(
      (waitMs) => HistoryStore.open(path, waitMs),
      (w) => warnings.push(w),
      DAY,
    );
    recorder.record(entry({ resultId: 'held' }));
    recorder.flush();
    other.exec('ROLLBACK');
    other.close();
    recorder.record(entry({ resultId: 'after' }));
    recorder.close();
    expect(warnings).toEqual([]);
    const store = HistoryStore.open(path);
    expect(store.list({ limit: 10 }).map((e) => e.resultId)).toEqual(['after', 'held']);
    store.close();
  });

  it('held through the close: one warning that names how many went unrecorded', () => {
    const path = file();
    HistoryStore.open(path).close();
    const other = holder(path);
    const warnings: string[] = [];
    const recorder = new HistoryRecorder(
      (waitMs) => HistoryStore.open(path, waitMs),
      (w) => warnings.push(w),
      undefined,
    );
    for (let i = 0; i < 3; i++) recorder.record(entry());
    recorder.flush();
    recorder.close();
    recorder.record(entry());
    recorder.close();
    other.exec('ROLLBACK');
    other.close();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^the history of writes is locked by another program; 3 writes of this run and any after go unrecorded\. End the program that holds it/,
    );
    const store = HistoryStore.open(path);
    expect(store.list({ limit: 10 })).toEqual([]);
    store.close();
  });

  it('a history that is a FIFO is one warning, and the write goes on: no wait for a writer', () => {
    const path = file();
    mkdirSync(dirname(path), { recursive: true });
    execFileSync('mkfifo', [path]);
    const warnings: string[] = [];
    const recorder = new HistoryRecorder(
      (waitMs) => HistoryStore.open(path, waitMs),
      (w) => warnings.push(w),
      undefined,
    );
    recorder.record(entry());
    recorder.close();
    expect(warnings).toEqual([
      `the history of writes could not be written (${path} is not a regular file); this run's writes go unrecorded`,
    ]);
  });

  it('a history reached through a link keeps the mode its owner gave the file', () => {
    const folder = mkdtempSync(join(tmpdir(), 'petstore-history-'));
    const shared = join(folder, 'shared.db');
    writeFileSync(shared, '');
    chmodSync(shared, 0o640);
    const path = join(folder, 'state', 'history.db');
    mkdirSync(dirname(path));
    symlinkSync(shared, path);
    HistoryStore.open(path).close();
    expect(statSync(shared).mode & 0o777).toBe(0o640);
    // Its own file, made wider by hand, is made private again.
    const own = file();
    HistoryStore.open(own).close();
    chmodSync(own, 0o644);
    HistoryStore.open(own).close();
    expect(statSync(own).mode & 0o777).toBe(0o600);
  });
});

describe('historySettings', () => {
  it('a value it cannot read is said, and the default kept: no command fails for it', () => {
    const bad = historySettings({ PETSTORE_HISTORY_RETENTION: 'a while' });
    expect(bad.retention).toBe(90 * DAY);
    expect(bad.problem).toMatch(
      /^PETSTORE_HISTORY_RETENTION must be a duration .*; the history keeps its default/,
    );
    expect(historySettings({ PETSTORE_HISTORY: 'off' })).toEqual({
      retention: 'off',
      problem: undefined,
    });
  });
});

describe('historyRetention', () => {
  it.each([
    [{}, 90 * DAY],
    [{ PETSTORE_HISTORY: 'off' }, 'off'],
    [{ PETSTORE_HISTORY: 'on', PETSTORE_HISTORY_RETENTION: '30d' }, 30 * DAY],
    [{ PETSTORE_HISTORY_RETENTION: 'forever' }, undefined],
  ])('%j -> %s', (env, expected) => {
    expect(historyRetention(env)).toBe(expected);
  });

  it.each([[{ PETSTORE_HISTORY: 'sometimes' }], [{ PETSTORE_HISTORY_RETENTION: 'a while' }]])(
    '%j is refused, saying what it takes',
    (env) => {
      expect(() => historyRetention(env)).toThrow(/must be/);
    },
  );
});
