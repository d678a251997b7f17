import { spawn } from 'node:child_process';
import {
  existsSync,
  linkSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
  utimesSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JournalBusyError } from '../../src/bulk/journal-file.js';
import type { JournalEntry, RunHeader } from '../../src/bulk/journal-entries.js';
import { JournalStore } from '../../src/bulk/journal-store.js';
import {
  apply,
  settleQueued,
  type BeforeAttempt,
  type Queued,
  type RecordState,
  type RunRead,
} from '../../src/bulk/record-states.js';
import { UsageError } from '../../src/core/errors.js';
import { newJournal, readJournalAt } from '../helpers/journal-file.js';

const folder = () => mkdtempSync(join(tmpdir(), 'petstore-store-'));

const RECORDS = 3;
/** The records steps act on: fewer than the input holds, so most runs leave one unsent. */
const ACTED_ON = 2;
const header = (_type: 'run' | 'resume', at: number, boot: string): RunHeader => ({
  input: '/in/pets.ndjson',
  records: RECORDS,
  target: 'profile staging',
  service: 'https://staging.example/v1',
  at: new Date(at).toISOString(),
  batch: 'batch-1',
  digest: 'whole',
  digests: 'AAAAAAAAAAA=',
  boot,
  namedBatch: false,
  inputFormat: 'ndjson',
});

/** What a run may do next, drawn; turned into entries the journal rules accept (see plan). */
const step = fc.oneof(
  { depthSize: 'small' },
  fc.record({ op: fc.constant('queue' as const), record: fc.integer({ min: 1, max: ACTED_ON }) }),
  fc.record({ op: fc.constant('send' as const), record: fc.integer({ min: 1, max: ACTED_ON }) }),
  fc.record({
    op: fc.constant('outcome' as const),
    record: fc.integer({ min: 1, max: ACTED_ON }),
    outcome: fc.constantFrom('created', 'failed', 'unknown'),
    replayed: fc.boolean(),
  }),
  fc.record({ op: fc.constant('print' as const), record: fc.integer({ min: 1, max: ACTED_ON }) }),
  fc.record({
    op: fc.constant('withdraw' as const),
    record: fc.integer({ min: 1, max: ACTED_ON }),
  }),
  fc.record({ op: fc.constant('clock' as const), aheadS: fc.integer({ min: -90, max: 90 }) }),
  fc.record({ op: fc.constant('run' as const), boot: fc.constantFrom('boot-1', 'boot-2') }),
);
type Step = typeof step extends fc.Arbitrary<infer T> ? T : never;

type Phase = 'none' | 'queued' | 'sending' | 'created' | 'failed' | 'unknown';

/** The steps as runs: each run's header, then the entries the rules accept, in order. */
function plan(steps: Step[]): { header: RunHeader; entries: JournalEntry[] }[] {
  const start = Date.UTC(2026, 10, 28);
  const runs = [{ header: header('run', start, 'boot-1'), entries: [] as JournalEntry[] }];
  const records = new Map<number, { phase: Phase; attempt: number; printed: boolean }>();
  const of = (record: number) =>
    records.get(record) ?? { phase: 'none' as Phase, attempt: 1, printed: false };
  for (const drawn of steps) {
    const run = runs.at(-1)!;
    const push = (entry: JournalEntry) => run.entries.push(entry);
    if (drawn.op === 'run') {
      const at = start + runs.length * 60_000;
      runs.push({ header: header('resume', at, drawn.boot), entries: [] });
      continue;
    }
    if (drawn.op === 'clock') {
      const at = start + (runs.length - 1) * 60_000 + 1_000;
      push({
        type: 'clock',
        at: new Date(at).toISOString(),
        service: new Date(at + drawn.aheadS * 1000).toUTCString(),
      });
      continue;
    }
    const { record } = drawn;
    const state = of(record);
    if (drawn.op === 'queue' && ['none', 'queued', 'failed', 'unknown'].includes(state.phase)) {
      const attempt = state.phase === 'failed' ? state.attempt + 1 : state.attempt;
      push({ type: 'queued', record, digest: `d${record}`, key: `k${record}-${attempt}` });
      records.set(record, { phase: 'queued', attempt, printed: false });
    } else if (drawn.op === 'send' && state.phase === 'queued') {
      push({ type: 'sending', record });
      records.set(record, { ...state, phase: 'sending' });
    } else if (drawn.op === 'outcome' && state.phase === 'sending') {
      const pet = { id: record * 100 + state.attempt, name: `pet ${record}`, categoryId: 1 };
      const error = { code: 'e', message: `refused ${record}`, status: 400 };
      if (drawn.outcome === 'created')
        push({ type: 'created', record, pet, replayed: drawn.replayed });
      else push({ type: drawn.outcome, record, error });
      records.set(record, { ...state, phase: drawn.outcome });
    } else if (drawn.op === 'print' && state.phase === 'created' && !state.printed) {
      push({ type: 'printed', record });
      records.set(record, { ...state, printed: true });
    } else if (drawn.op === 'withdraw' && (state.phase === 'queued' || state.phase === 'sending')) {
      push({ type: 'withdrawn', record });
      // What it was before is the reader's to know; the plan only stops drawing on it.
      records.set(record, { ...state, phase: 'unknown' });
    }
  }
  return runs;
}

/**
 * What the runs leave, by the rules alone (record-states.ts), as nothing was ever written
 * down: what the store must give back once closed and opened again.
 */
function model(runs: ReturnType<typeof plan>, bootNow: string | undefined) {
  const states = new Map<number, RecordState | Queued>();
  const before: BeforeAttempt = new Map();
  const run: RunRead = { boot: undefined, at: 0, index: -1 };
  /** How far ahead the service's clock was, by run: once per run, its first clock entry. */
  const ahead = new Map<number, number>();
  for (const { header: started, entries } of runs) {
    Object.assign(run, { boot: started.boot, at: Date.parse(started.at), index: run.index + 1 });
    const clock = entries.find((entry) => entry.type === 'clock');
    for (const entry of entries) {
      if (entry.type === 'clock') continue;
      expect(apply(states, before, entry, run)).toBeUndefined();
    }
    if (clock?.type === 'clock') {
      ahead.set(
        run.index,
        Date.parse(new Date(clock.service).toISOString()) - Date.parse(clock.at),
      );
    }
  }
  const widened = { noBoot: [], otherBoot: [] };
  const settled = settleQueued(states, before, bootNow, widened);
  // When each key was first sent by the service's clock, where its run gave that clock.
  for (const [record, state] of settled) {
    const by = ahead.get(state.keySent.run);
    const byService = by === undefined ? undefined : state.keySent.at + by;
    settled.set(record, { ...state, keySent: { ...state.keySent, byService } });
  }
  return { states: settled, unknownSinceQueued: widened };
}

/** The runs written to the store, each run opening it again as a resume does. */
async function asStore(runs: ReturnType<typeof plan>, dir: string): Promise<string> {
  const path = join(dir, 'store.journal');
  for (const [index, run] of runs.entries()) {
    const store = index === 0 ? newJournal(path, run.header) : await JournalStore.open(path);
    if (index > 0) store.startRun(run.header);
    for (const entry of run.entries) store.append(entry);
    await store.close();
  }
  return path;
}

describe('the SQLite journal store', () => {
  it('gives back, once closed and opened again, what the rules make of any runs of entries', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { minLength: 4, maxLength: 40, size: 'max' }),
        fc.constantFrom('boot-1', 'boot-2', undefined),
        async (steps, bootNow) => {
          const runs = plan(steps);
          const expected = model(runs, bootNow);
          const read = await readJournalAt(await asStore(runs, folder()), bootNow);
          expect(read.states).toEqual(expected.states);
          expect(read.unknownSinceQueued).toEqual(expected.unknownSinceQueued);
          expect(read).toMatchObject({
            batch: 'batch-1',
            records: RECORDS,
            input: '/in/pets.ndjson',
            started: runs[0]!.header.at,
            namedBatch: false,
            inputFormat: 'ndjson',
          });
        },
      ),
      { numRuns: 60 },
    );
  }, 120_000);

  it('holds its lock from open to close: a second open, by any name of the file, is refused', async () => {
    const dir = folder();
    const path = join(dir, 'run.journal');
    const held = newJournal(path, header('run', Date.now(), 'boot-1'));
    const hard = join(dir, 'hard.journal');
    linkSync(path, hard);
    for (const name of [path, hard, join(dir, '.', 'run.journal')]) {
      const refused = JournalStore.open(name, 0);
      await expect(refused).rejects.toThrow(JournalBusyError);
      await expect(refused).rejects.toThrow(/in use by another petstore run/);
    }
    await held.close();
    // Free: through either name, the same journal.
    const viaLink = await JournalStore.open(hard, 0);
    expect(viaLink.header().batch).toBe('batch-1');
    await viaLink.close();
    const again = await JournalStore.open(path, 0);
    await again.close();
  });

  it('is taken at once after its holder is killed with SIGKILL', async () => {
    const dir = folder();
    const path = join(dir, 'run.journal');
    await newJournal(path, header('run', Date.now(), 'boot-1')).close();
    const holder = spawn(
      process.execPath,
      [
        '-e',
        `const { DatabaseSync } = require('node:sqlite');
         const db = new DatabaseSync(process.argv[1]);
         db.exec('PRAGMA locking_mode = EXCLUSIVE; PRAGMA journal_mode = WAL; BEGIN EXCLUSIVE; COMMIT');
         process.stdout.write('held\\n');
         setInterval(() => {}, 1000);`,
        path,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise<void>((resolve) => holder.stdout.once('data', () => resolve()));
    await expect(JournalStore.open(path, 0)).rejects.toThrow(JournalBusyError);
    const ended = new Promise((resolve) => holder.once('exit', resolve));
    holder.kill('SIGKILL');
    await ended;
    const taken = await JournalStore.open(path, 0);
    expect(taken.header().batch).toBe('batch-1');
    await taken.close();
  });

  it('refuses a file of another kind, a journal of the text format among them, changing nothing', async () => {
    const dir = folder();
    const foreignDb = join(dir, 'other.db');
    const other = new DatabaseSync(foreignDb);
    other.exec('CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES (1)');
    other.close();
    const files = {
      text: `${JSON.stringify({ type: 'run', version: 1, ...header('run', Date.now(), 'b') })}\n`,
      empty: '',
      binary: '\u0000\u0001garbage',
    };
    const paths = [foreignDb];
    for (const [name, text] of Object.entries(files)) {
      const path = join(dir, `${name}.journal`);
      writeFileSync(path, text);
      paths.push(path);
    }
    for (const path of paths) {
      const bytes = readFileSync(path);
      await expect(JournalStore.open(path)).rejects.toThrow(
        /not a petstore journal of this version/,
      );
      await expect(JournalStore.open(path)).rejects.toThrow(/nothing was changed/);
      expect(readFileSync(path).equals(bytes), path).toBe(true);
      expect(existsSync(`${path}-wal`)).toBe(false);
      expect(() => newJournal(path, header('run', Date.now(), 'boot-1'))).toThrow(/already exists/);
      expect(readFileSync(path).equals(bytes), path).toBe(true);
    }
  });

  it('a journal with a page gone bad is said to be damaged, not another format', async () => {
    const path = join(folder(), 'run.journal');
    await newJournal(path, header('run', Date.now(), 'boot-1')).close();
    // Every page after the first (the schema) overwritten, as a bad disk block would be.
    const bytes = readFileSync(path);
    const pageSize = bytes.readUInt16BE(16);
    bytes.fill(0x5a, pageSize);
    writeFileSync(path, bytes);
    const opening = JournalStore.open(path, 0);
    await expect(opening).rejects.toThrow(`the journal ${path} is damaged`);
    await expect(JournalStore.open(path, 0)).rejects.not.toThrow(/of this version/);
    expect(readFileSync(path).equals(bytes)).toBe(true);
  });

  it('refuses, as damaged and never with a crash, any row petstore would not have written', async () => {
    const dir = folder();
    const good = join(dir, 'good.journal');
    await newJournal(good, header('run', Date.now(), 'boot-1')).close();
    const value = fc.oneof(
      fc.constant(null),
      fc.integer({ min: -2, max: 5 }),
      fc.double(),
      fc.string(),
      fc.jsonValue().map((json) => JSON.stringify(json)),
      fc.constantFrom(
        '{"id":7,"name":"A","categoryId":1}',
        '{"code":"c","message":"m","status":400}',
      ),
    );
    let damaged = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          record: fc.integer({ min: -1, max: 5 }),
          outcome: fc.constantFrom('queued', 'created', 'failed', 'unknown'),
          digest: value,
          key: value,
          attempt: value,
          pet: value,
          error: value,
          prior: value,
        }),
        async (row) => {
          const path = join(dir, `row-${damaged++}.journal`);
          writeFileSync(path, readFileSync(good));
          const db = new DatabaseSync(path);
          try {
            db.prepare(
              `INSERT INTO records (record, outcome, digest, key, attempt, key_run, pet, error, prior)
               VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?)`,
            ).run(
              row.record,
              row.outcome,
              row.digest,
              row.key,
              row.attempt,
              row.pet,
              row.error,
              row.prior,
            );
          } catch {
            return; // Refused by the table itself (a constraint): nothing to read.
          } finally {
            db.close();
          }
          try {
            const read = await readJournalAt(path, 'boot-1', 0);
            expect(read.states.size).toBeLessThanOrEqual(1);
          } catch (error) {
            expect(error).toBeInstanceOf(UsageError);
            expect((error as Error).message).toMatch(/is damaged: /);
          }
        },
      ),
      {
        numRuns: 150,
        // Found once: a number past 2^53, which node:sqlite refuses to read as a number.
        examples: [
          [
            {
              record: 0,
              outcome: 'queued',
              digest: '',
              key: '',
              attempt: -9007199254740992,
              pet: null,
              error: '{"id":7,"name":"A","categoryId":1}',
              prior: 0,
            },
          ],
        ],
      },
    );
  });

  it('is made whole or not at all, and leaves nothing beside it', async () => {
    const dir = folder();
    const path = join(dir, 'run.journal');
    const store = newJournal(path, header('run', Date.now(), 'boot-1'));
    // Made aside and linked into place: nothing of the making is left.
    expect(readdirSync(dir).filter((name) => !name.startsWith('run.journal-wal'))).toEqual([
      'run.journal',
    ]);
    await store.close();
    expect(readdirSync(dir)).toEqual(['run.journal']);
  });

  it('is not made where a killed run left its log without its journal', () => {
    const dir = folder();
    const path = join(dir, 'run.journal');
    writeFileSync(`${path}-wal`, 'the last commits of a journal since moved');
    expect(() => newJournal(path, header('run', Date.now(), 'boot-1'))).toThrow(
      `${path}-wal is there without its journal`,
    );
    expect(existsSync(path)).toBe(false);
    expect(readFileSync(`${path}-wal`, 'utf8')).toBe('the last commits of a journal since moved');
  });

  it('a journal its last run did not close, without its log beside it, is refused unchanged', async () => {
    const dir = folder();
    const path = join(dir, 'moved.journal');
    await newJournal(path, header('run', Date.now(), 'boot-1')).close();
    // As a killed run leaves it, moved away from its log: marked in use, and no log here.
    const raw = new DatabaseSync(path);
    raw.exec('PRAGMA user_version = 1');
    raw.close();
    const bytes = readFileSync(path);
    await expect(JournalStore.open(path, 0)).rejects.toThrow(
      `the journal ${path} is not whole here`,
    );
    expect(readFileSync(path).equals(bytes)).toBe(true);
  });

  it('is read by journal list and show without a write: its age stays its own', async () => {
    const path = join(folder(), 'run.journal');
    await newJournal(path, header('run', Date.now(), 'boot-1')).close();
    const bytes = readFileSync(path);
    // Dated an hour back: any write now would date it to now.
    const hourAgo = new Date(Date.now() - 3_600_000);
    utimesSync(path, hourAgo, hourAgo);
    const before = statSync(path).mtimeMs;
    expect((await readJournalAt(path, 'boot-1')).batch).toBe('batch-1');
    expect(statSync(path).mtimeMs).toBe(before);
    expect(readFileSync(path).equals(bytes)).toBe(true);
  });

  it('starts "SQLite format 3"', async () => {
    const path = join(folder(), 'run.journal');
    await newJournal(path, header('run', Date.now(), 'boot-1')).close();
    expect(readFileSync(path).subarray(0, 15).toString()).toBe('SQLite format 3');
  });
});

describe('a journal in use', () => {
  it('a reader holding it for a moment is waited for; a run holding it is not', async () => {
    const path = join(folder(), 'run.journal');
    const held = newJournal(path, header('run', Date.now(), 'boot-1'));
    // Its first try is made at the call, refused; the journal let go after it, a later one reads.
    const waiting = readJournalAt(path, 'boot-1', 5_000);
    await held.close();
    const waited = await waiting;
    expect(waited.batch).toBe('batch-1');
    const again = newJournal(join(folder(), 'run.journal'), header('run', 0, 'b'));
    await expect(readJournalAt(again.path, 'b', 100)).rejects.toThrow(JournalBusyError);
    await again.close();
  });

  it('commits an entry by the end of the turn, and syncs it when asked', async () => {
    const path = join(folder(), 'run.journal');
    const store = newJournal(path, header('run', Date.now(), 'boot-1'));
    const queued = store.append({ type: 'queued', record: 1, digest: 'd1', key: 'k1' });
    const sending = store.append({ type: 'sending', record: 1 });
    await store.syncedThrough(queued);
    const committed = store.committedThrough(
      store.append({ type: 'failed', record: 1, error: { code: 'c', message: 'm', status: 400 } }),
    );
    await committed;
    expect(sending).toBeLessThan(queued + 2);
    await store.close();
    const read = await readJournalAt(path, 'boot-1');
    expect(read.states.get(1)).toMatchObject({ outcome: 'failed', key: 'k1', attempt: 1 });
    expect(existsSync(`${path}-wal`)).toBe(false);
  });
});

/** A journal of one run holding these entries, closed. */
async function journalOf(entries: JournalEntry[], boot = 'boot-1'): Promise<string> {
  const path = join(folder(), 'run.journal');
  const store = newJournal(path, header('run', Date.UTC(2026, 10, 24), boot));
  for (const entry of entries) store.append(entry);
  await store.close();
  return path;
}

const outcomes = (states: Map<number, RecordState>) =>
  [...states].map(([record, state]) => [record, state.outcome]);

describe('records queued and never sent', () => {
  it('were not sent, within the boot they were queued in; after another, they are unknown', async () => {
    const path = await journalOf([
      { type: 'queued', record: 1, digest: 'd1', key: 'k1' },
      { type: 'queued', record: 2, digest: 'd2', key: 'k2' },
      { type: 'queued', record: 3, digest: 'd3', key: 'k3' },
      { type: 'sending', record: 1 },
    ]);
    const same = await readJournalAt(path, 'boot-1');
    expect(outcomes(same.states)).toEqual([[1, 'unknown']]);
    const rebooted = await readJournalAt(path, 'boot-2');
    expect(outcomes(rebooted.states)).toEqual([
      [1, 'unknown'],
      [2, 'unknown'],
      [3, 'unknown'],
    ]);
    expect(rebooted.states.get(2)).toMatchObject({ key: 'k2', digest: 'd2' });
    // Each such record is named, with why: a new boot, or a boot that cannot be told.
    expect(same.unknownSinceQueued).toEqual({ noBoot: [], otherBoot: [] });
    expect(rebooted.unknownSinceQueued).toEqual({ noBoot: [], otherBoot: [2, 3] });
    const noBoot = await readJournalAt(path, undefined);
    expect(noBoot.unknownSinceQueued).toEqual({ noBoot: [2, 3], otherBoot: [] });
  });
});

describe('each record’s attempt', () => {
  const failedOnce: JournalEntry[] = [
    { type: 'queued', record: 2, digest: 'd2', key: 'k2a' },
    { type: 'sending', record: 2 },
    { type: 'failed', record: 2, error: { code: 'bad', message: 'no', status: 400 } },
  ];

  it('is one more for each new key the record was sent with, the same for a key sent again', async () => {
    const first = await journalOf(failedOnce);
    const store = await JournalStore.open(first);
    store.startRun({ at: new Date().toISOString(), boot: 'boot-1' });
    for (const entry of [
      { type: 'queued', record: 2, digest: 'd2', key: 'k2b' },
      { type: 'sending', record: 2 },
      { type: 'unknown', record: 2, error: { code: 'timeout', message: 'no answer', status: 0 } },
      { type: 'queued', record: 2, digest: 'd2', key: 'k2b' },
      { type: 'sending', record: 2 },
      { type: 'failed', record: 2, error: { code: 'bad', message: 'no', status: 400 } },
    ] as JournalEntry[]) {
      store.append(entry);
    }
    await store.close();
    const contents = await readJournalAt(first, 'boot-1');
    expect(contents.states.get(2)).toMatchObject({ outcome: 'failed', key: 'k2b', attempt: 2 });
  });

  it('a retry queued but never sent, or withdrawn, leaves the record as it was: failed, with its key', async () => {
    const retry: JournalEntry = { type: 'queued', record: 2, digest: 'd2', key: 'k2b' };
    for (const tail of [
      [retry],
      [retry, { type: 'withdrawn', record: 2 }],
      [retry, { type: 'sending', record: 2 }, { type: 'withdrawn', record: 2 }],
    ] as JournalEntry[][]) {
      const contents = await readJournalAt(await journalOf([...failedOnce, ...tail]), 'boot-1');
      expect(contents.states.get(2), JSON.stringify(tail)).toMatchObject({
        outcome: 'failed',
        key: 'k2a',
        attempt: 1,
      });
    }
  });
});

describe('a journal an earlier version wrote', () => {
  it('without the columns of records set aside: read as none, gains them when a run continues it', async () => {
    const path = join(folder(), 'old.journal');
    const store = newJournal(path, {
      ...header('run', 1_000, 'boot-a'),
      skipInvalid: true,
      rejected: 2,
    });
    await store.close();
    const raw = new DatabaseSync(path);
    raw.exec('ALTER TABLE journal DROP COLUMN skip_invalid; ALTER TABLE runs DROP COLUMN rejected');
    raw.close();
    const read = await readJournalAt(path, 'boot-a');
    expect([read.skipInvalid, read.rejected]).toEqual([false, 0]);
    const resumed = await JournalStore.open(path);
    resumed.startRun({
      at: new Date(2_000).toISOString(),
      boot: 'boot-a',
      skipInvalid: true,
      rejected: 1,
    });
    await resumed.close();
    const after = await readJournalAt(path, 'boot-a');
    expect([after.skipInvalid, after.rejected]).toEqual([true, 1]);
  });
});
