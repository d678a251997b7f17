import { spawn } from 'node:child_process';
import { existsSync, linkSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JournalBusyError } from '../../src/bulk/journal-db.js';
import type { JournalEntry, RunHeader } from '../../src/bulk/journal-entries.js';
import { readJournal } from '../../src/bulk/journal-read.js';
import { JournalStore } from '../../src/bulk/journal-store.js';
import { JournalWriter } from '../../src/bulk/journal-writer.js';

const folder = () => mkdtempSync(join(tmpdir(), 'petstore-store-'));

const RECORDS = 3;
/** The records steps act on: fewer than the input holds, so most runs leave one unsent. */
const ACTED_ON = 2;
const header = (type: 'run' | 'resume', at: number, boot: string): RunHeader => ({
  type,
  version: 1,
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

/** The runs written as the NDJSON journal was. */
async function asNdjson(runs: ReturnType<typeof plan>, dir: string): Promise<string> {
  const path = join(dir, 'text.journal');
  const writer = await JournalWriter.create(path, runs[0]!.header, join(dir, 'locks'));
  for (const [index, run] of runs.entries()) {
    if (index > 0) writer.append(run.header);
    for (const entry of run.entries) writer.append(entry);
  }
  await writer.close();
  return path;
}

/** The runs written to the store, each run opening it again as a resume does. */
async function asStore(runs: ReturnType<typeof plan>, dir: string): Promise<string> {
  const path = join(dir, 'store.journal');
  for (const [index, run] of runs.entries()) {
    const store = index === 0 ? JournalStore.create(path, run.header) : JournalStore.open(path);
    if (index > 0) store.startRun(run.header);
    for (const entry of run.entries) store.append(entry);
    await store.close();
  }
  return path;
}

describe('the SQLite journal store', () => {
  it('reads back what the NDJSON journal read back, for any runs of entries the rules accept', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { minLength: 4, maxLength: 40, size: 'max' }),
        fc.constantFrom('boot-1', 'boot-2', undefined),
        async (steps, bootNow) => {
          const runs = plan(steps);
          const dir = folder();
          const text = await readJournal(await asNdjson(runs, dir), bootNow);
          const store = JournalStore.open(await asStore(runs, dir));
          try {
            const read = store.read(bootNow);
            expect(read.states).toEqual(text.states);
            expect(read.unknownSinceQueued).toEqual(text.unknownSinceQueued);
            expect({ ...read, states: undefined }).toEqual({ ...text, states: undefined });
          } finally {
            await store.close();
          }
        },
      ),
      { numRuns: 50 },
    );
  }, 120_000);

  it('holds its lock from open to close: a second open, by any name of the file, is refused', async () => {
    const dir = folder();
    const path = join(dir, 'run.journal');
    const held = JournalStore.create(path, header('run', Date.now(), 'boot-1'));
    const hard = join(dir, 'hard.journal');
    linkSync(path, hard);
    for (const name of [path, hard, join(dir, '.', 'run.journal')]) {
      expect(() => JournalStore.open(name)).toThrow(JournalBusyError);
      expect(() => JournalStore.open(name)).toThrow(/in use by another petstore run/);
    }
    await held.close();
    const again = JournalStore.open(hard);
    await again.close();
  });

  it('is taken at once after its holder is killed with SIGKILL', async () => {
    const dir = folder();
    const path = join(dir, 'run.journal');
    await JournalStore.create(path, header('run', Date.now(), 'boot-1')).close();
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
    expect(() => JournalStore.open(path)).toThrow(JournalBusyError);
    const ended = new Promise((resolve) => holder.once('exit', resolve));
    holder.kill('SIGKILL');
    await ended;
    const taken = JournalStore.open(path);
    expect(taken.read('boot-1').batch).toBe('batch-1');
    await taken.close();
  });

  it('refuses a file of another kind, a journal of the text format among them, changing nothing', () => {
    const dir = folder();
    const old = join(dir, 'old.journal');
    const text = `${JSON.stringify(header('run', Date.now(), 'boot-1'))}\n`;
    writeFileSync(old, text);
    expect(() => JournalStore.open(old)).toThrow(/not a petstore journal of this version/);
    expect(readFileSync(old, 'utf8')).toBe(text);
    expect(existsSync(`${old}-wal`)).toBe(false);
    expect(() => JournalStore.create(old, header('run', Date.now(), 'boot-1'))).toThrow(
      /already exists/,
    );
    expect(readFileSync(old, 'utf8')).toBe(text);
  });

  it('starts "SQLite format 3"', async () => {
    const path = join(folder(), 'run.journal');
    await JournalStore.create(path, header('run', Date.now(), 'boot-1')).close();
    expect(readFileSync(path).subarray(0, 15).toString()).toBe('SQLite format 3');
  });
});
