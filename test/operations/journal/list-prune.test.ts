import { newJournal } from '../../helpers/journal-file.js';
import { existsSync, mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { scratchFolder } from '../../../src/bulk/import-source.js';
import { tryLock } from '../../../src/core/kernel-lock.js';
import { bootId } from '../../../src/core/boot-id.js';
import { loadSqlite } from '../../../src/core/sqlite.js';
import { JournalDraft } from '../../../src/bulk/journal-draft.js';
import { journalOfBatch, ManyJournalsError } from '../../../src/operations/journal/find.js';
import { listJournals } from '../../../src/bulk/journal-list.js';
import { pruneJournals } from '../../../src/operations/journal/prune.js';

const SERVICE = 'https://staging.example/v1';

/** A journal of `records` records in `folder`, the first `created` of them created. */
async function journal(
  folder: string,
  name: string,
  run: { batch: string; records: number; created: number; service?: string },
): Promise<string> {
  const path = join(folder, `${name}.${run.batch}.journal`);
  const store = newJournal(path, {
    input: '/in/pets.csv',
    records: run.records,
    target: 'profile staging',
    service: run.service ?? SERVICE,
    at: new Date().toISOString(),
    batch: run.batch,
    boot: bootId(),
  });
  for (let record = 1; record <= run.records; record++) {
    store.append({ type: 'queued', record, digest: `d${record}`, key: `k${record}` });
    if (record > run.created) continue;
    store.append({ type: 'sending', record });
    store.append({
      type: 'created',
      record,
      pet: { id: record, name: `p${record}`, categoryId: 1 },
    });
  }
  await store.close();
  return path;
}

const scratch = () => mkdtempSync(join(tmpdir(), 'petstore-journal-ops-'));

describe('listJournals', () => {
  it('counts each journal, says which are finished, and keeps other files apart', async () => {
    const folder = scratch();
    await journal(folder, 'a', { batch: 'batch-done', records: 2, created: 2 });
    await journal(folder, 'b', { batch: 'batch-half', records: 4, created: 1 });
    writeFileSync(join(folder, 'notes.txt'), 'not listed: not named as a journal');
    writeFileSync(join(folder, 'junk.journal'), 'named as one, but not a journal');
    const listed = await listJournals(folder);
    const byBatch = new Map(listed.map((entry) => [entry.batch ?? entry.path, entry]));
    expect(byBatch.get('batch-done')).toMatchObject({ records: 2, created: 2, finished: true });
    expect(byBatch.get('batch-half')).toMatchObject({ records: 4, created: 1, unsent: 3 });
    expect(byBatch.get('batch-half')?.finished).toBe(false);
    expect(listed).toHaveLength(3);
    const junk = listed.find((entry) => entry.path.endsWith('junk.journal'));
    expect(junk?.problem).toMatch(/not a petstore journal/);
    expect(junk?.records).toBe(0);
  });
});

describe('pruneJournals', () => {
  it('removes finished journals, keeps unfinished ones and other files unless forced', async () => {
    const folder = scratch();
    await journal(folder, 'a', { batch: 'batch-done', records: 1, created: 1 });
    await journal(folder, 'b', { batch: 'batch-half', records: 3, created: 1 });
    writeFileSync(join(folder, 'notes.txt'), 'keep me');
    const request = { olderThanMs: undefined, force: false, dryRun: false };
    const outcome = await pruneJournals({ folder, now: Date.now() }, request);
    expect(outcome.removed.map((pruned) => pruned.journal.batch)).toEqual(['batch-done']);
    expect(outcome.kept.map((kept) => kept.journal.batch ?? 'other')).toContain('batch-half');
    expect((await readdir(folder)).sort()).toEqual(['b.batch-half.journal', 'notes.txt']);

    const forced = await pruneJournals({ folder, now: Date.now() }, { ...request, force: true });
    expect(forced.removed[0]?.lost).toBe('2 never sent of 3 records');
    expect(await readdir(folder)).toEqual(['notes.txt']);
  });

  it('a dry run removes nothing, and nothing younger than asked is touched', async () => {
    const folder = scratch();
    await journal(folder, 'a', { batch: 'batch-done', records: 1, created: 1 });
    const dry = await pruneJournals(
      { folder, now: Date.now() },
      { olderThanMs: undefined, force: false, dryRun: true },
    );
    expect(dry.removed).toHaveLength(1);
    const young = await pruneJournals(
      { folder, now: Date.now() },
      { olderThanMs: 3_600_000, force: false, dryRun: false },
    );
    expect(young.removed).toEqual([]);
    expect(await readdir(folder)).toEqual(['a.batch-done.journal']);
  });
});

describe('pruneJournals and the drafts of runs ended while reading', () => {
  it('removes a draft no run holds, whatever its age, and keeps one a run is writing', async () => {
    const folder = scratch();
    // A run killed in its first reading left its draft (and SQLite's log of it) behind.
    const { DatabaseSync } = loadSqlite();
    const dead = join(folder, '.draft-0123456789ab.journal.new');
    const db = new DatabaseSync(dead);
    db.exec('CREATE TABLE inputs (record INTEGER)');
    db.close();
    writeFileSync(`${dead}-journal`, '');
    const live = JournalDraft.begin(folder);
    const request = { olderThanMs: 60 * 60 * 1000, force: false, dryRun: false };
    const dry = await pruneJournals({ folder, now: Date.now() }, { ...request, dryRun: true });
    expect(dry.drafts).toBe(1);
    const drafts = async () => (await readdir(folder)).filter((name) => name.endsWith('.new'));
    expect(await drafts()).toHaveLength(2);
    const outcome = await pruneJournals({ folder, now: Date.now() }, request);
    expect(outcome.drafts).toBe(1);
    const left = await drafts();
    expect(left).toHaveLength(1);
    expect(await readdir(folder)).not.toContain('.draft-0123456789ab.journal.new-journal');
    expect(left[0]).not.toBe('.draft-0123456789ab.journal.new');
    live.discard();
    expect(await readdir(folder)).toEqual([]);
  });
});

describe('pruneJournals and the copies of stdin killed runs left', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('removes a copy no run holds, and keeps the one a run is using', async () => {
    const temporary = scratch();
    vi.stubEnv('TMPDIR', temporary);
    const live = await scratchFolder();
    // A run killed with its copy: its folder as it made it, its lock now free.
    const left = join(temporary, 'petstore-import-left');
    mkdirSync(left);
    writeFileSync(join(left, 'input'), '{"name":"Rex","categoryId":1}\n');
    const lock = await tryLock(join(left, 'in-use.lock'), { announce: false });
    if (lock.taken) await lock.release();
    // One an older petstore left, with no lock: removed once it is a minute old, not before.
    const older = join(temporary, 'petstore-import-older');
    mkdirSync(older);
    const fresh = join(temporary, 'petstore-import-fresh');
    mkdirSync(fresh);
    const past = new Date(Date.now() - 5 * 60_000);
    utimesSync(older, past, past);
    const request = { olderThanMs: undefined, force: false, dryRun: true };
    const dry = await pruneJournals({ folder: scratch(), now: Date.now() }, request);
    expect(dry.scratch).toBe(2);
    expect(existsSync(left)).toBe(true);
    expect(existsSync(older)).toBe(true);
    const done = await pruneJournals(
      { folder: scratch(), now: Date.now() },
      { ...request, dryRun: false },
    );
    expect(done.scratch).toBe(2);
    expect(existsSync(left)).toBe(false);
    expect(existsSync(older)).toBe(false);
    expect(existsSync(fresh)).toBe(true);
    expect(existsSync(live.path)).toBe(true);
    await live.remove();
    expect(existsSync(live.path)).toBe(false);
  });
});

describe('journalOfBatch', () => {
  it("finds a batch's journal by its id, for the service asked, and refuses two", async () => {
    const folder = scratch();
    const path = await journal(folder, 'a', { batch: 'batch-x', records: 1, created: 0 });
    await journal(folder, 'b', {
      batch: 'batch-x',
      records: 1,
      created: 0,
      service: 'https://other.example/v1',
    });
    expect(await journalOfBatch('batch-x', folder, { service: SERVICE })).toBe(path);
    expect(await journalOfBatch('batch-y', folder)).toBeUndefined();
    const both = await journalOfBatch('batch-x', folder).catch((error: unknown) => error);
    expect(both).toBeInstanceOf(ManyJournalsError);
    expect((both as ManyJournalsError).journals).toHaveLength(2);
  });
});
