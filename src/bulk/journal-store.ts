import { realpathSync } from 'node:fs';
import type { DatabaseSync } from 'node:sqlite';
import { UsageError } from '../core/errors.js';
import { parseHttpDate } from '../core/http-date.js';
import { stringifyJson } from '../core/json.js';
import {
  addLaterColumns,
  FORMAT,
  recordRow,
  writeHeader,
  stateRow,
  statements,
  type Row,
  type Statements,
} from './journal-db.js';
import {
  closeJournal,
  createJournalFile,
  notThisFormat,
  openLocked,
  openLockedWaiting,
  writeFailed,
} from './journal-file.js';
import { LogSync } from './log-sync.js';
import type {
  ClockEntry,
  JournalEntry,
  JournalSink,
  RecordEntry,
  RunHeader,
} from './journal-entries.js';
import {
  apply,
  settleQueued,
  type BeforeAttempt,
  type JournalContents,
  type KeySent,
  type Queued,
  type RecordState,
  type RunRead,
  type UnknownSinceQueued,
} from './record-states.js';

/**
 * A bulk run's journal as one SQLite database: the batch (its input, target, digests), one row
 * per run, and one row per record with its state, key, attempt and outcome. The run that opens
 * it holds SQLite's exclusive lock on the database file from start to end: a lock of the
 * file's inode, which every name of it meets (a hard link, a bind mount, another HOME), and
 * which the kernel drops the moment its holder ends, however it ends. Records change as the
 * runner's entries say (record-states.ts), committed as each turn of the event loop ends (or
 * at once: flush), where a kill cannot undo them; what must survive a power cut before a
 * request goes out is synced to disk too (syncedThrough, log-sync.ts).
 */

/**
 * One journal, open and locked. `create` makes a new one (never over an existing file);
 * `open` continues one, whose contents `read` gives as the planner wants them.
 */
export class JournalStore implements JournalSink {
  private readonly states = new Map<number, RecordState | Queued>();
  private readonly before: BeforeAttempt = new Map();
  /** The run each record's key was first sent in. */
  private readonly keyRuns = new WeakMap<KeySent, number>();
  private readonly run: RunRead = { boot: undefined, at: 0, index: -1, keys: [] };
  private readonly dirty = new Set<number>();
  private pending: JournalEntry[] = [];
  private closed = false;
  /** Those waiting for the next commit (committedThrough). */
  private waiting: PromiseWithResolvers<undefined> | undefined;
  /** Why a commit failed: nothing is written after it. */
  private broken: UsageError | undefined;
  /** Syncs what is committed to disk (see log-sync.ts). */
  private readonly log: LogSync;
  private appended = 0;
  private written = 0;
  private flushScheduled = false;
  private readonly sql: Statements;

  private constructor(
    readonly path: string,
    private readonly db: DatabaseSync,
  ) {
    // SQLite names the log after the file's real path (a symlink resolved), as this must.
    this.log = new LogSync(realpathSync(path));
    this.sql = statements(db);
  }

  /** A new journal holding the batch's header and its first run; an existing file is refused. */
  static create(path: string, header: RunHeader): JournalStore {
    createJournalFile(path, (db) => writeHeader(db, header));
    // Opened as any journal is: another run may have taken it in between (busy, then).
    const store = new JournalStore(path, openLocked(path));
    store.startRun(header);
    return store;
  }

  /**
   * An existing journal, locked, its records loaded; startRun() starts this run's row. A
   * reader holding it for a moment is waited for (up to `waitMs`); a run holding it is busy.
   */
  static async open(
    path: string,
    waitMs = 1000,
    purpose: 'write' | 'read' = 'write',
  ): Promise<JournalStore> {
    const db = await openLockedWaiting(path, waitMs, purpose);
    try {
      const store = new JournalStore(path, db);
      store.load();
      return store;
    } catch (error) {
      closeJournal(db);
      if (error instanceof UsageError) throw error;
      throw new UsageError(`the journal ${path} is damaged: ${(error as Error).message}`, {
        hint: 'Only petstore writes a journal; restore it from where it came.',
      });
    }
  }

  /** What the journal at `path` holds, read under its lock and let go (see read()). */
  static async readAt(
    path: string,
    boot: string | undefined,
    waitMs = 1000,
  ): Promise<JournalContents> {
    const store = await JournalStore.open(path, waitMs, 'read');
    try {
      return store.read(boot);
    } finally {
      closeJournal(store.db);
      store.closed = true;
    }
  }

  /** This run's row: its start and boot, which the records it queues and sends refer to. */
  startRun(header: Pick<RunHeader, 'at' | 'boot' | 'skipInvalid' | 'rejected'>): void {
    this.flush();
    const index = this.run.index + 1;
    addLaterColumns(this.db);
    this.db
      .prepare('INSERT INTO runs (run, at, boot, rejected) VALUES (?, ?, ?, ?)')
      .run(index, header.at, header.boot ?? null, header.rejected ?? 0);
    if (header.skipInvalid === true) this.db.exec('UPDATE journal SET skip_invalid = 1');
    Object.assign(this.run, { index, at: Date.parse(header.at), boot: header.boot });
  }

  private header(): Row {
    let row: Row | undefined;
    try {
      row = this.db.prepare('SELECT * FROM journal').get();
    } catch {
      row = undefined;
    }
    if (row === undefined || row.format !== FORMAT) throw notThisFormat(this.path);
    return row;
  }

  private load(): void {
    const records = Number(this.header().records);
    const runs = this.db.prepare('SELECT run, at FROM runs ORDER BY run').all() as Row[];
    const at = new Map(runs.map((row) => [Number(row.run), Date.parse(row.at as string)]));
    this.run.index = runs.length - 1;
    // When a key was first sent: the start of the run that first sent it.
    const sentIn = (keyRun: number): KeySent => {
      const keySent: KeySent = { at: at.get(keyRun) ?? 0, byService: undefined };
      this.keyRuns.set(keySent, keyRun);
      return keySent;
    };
    for (const row of this.db.prepare('SELECT * FROM records').iterate() as Iterable<Row>) {
      const { record, state, prior } = recordRow(row, records, sentIn);
      this.states.set(record, state);
      if (prior !== undefined) this.before.set(record, prior);
    }
  }

  /** What the journal holds, as a resume plans from it (`boot`: this machine's now). */
  read(boot: string | undefined): JournalContents {
    this.flush();
    const header = this.header();
    const runs = this.db.prepare('SELECT * FROM runs ORDER BY run').all() as Row[];
    const ahead = new Map(runs.map((row) => [Number(row.run), row.service_ahead_ms]));
    // When each key was first sent by the service's clock, where its run journaled that clock.
    const byService = <State extends RecordState | Queued>(state: State): State => {
      const keyRun = this.keyRuns.get(state.keySent);
      const serviceAhead = keyRun === undefined ? undefined : ahead.get(keyRun);
      const { at } = state.keySent;
      const later = typeof serviceAhead === 'number' ? at + serviceAhead : undefined;
      return { ...state, keySent: { at, byService: later } };
    };
    const states = new Map<number, RecordState | Queued>();
    for (const [record, state] of this.states) states.set(record, byService(state));
    const before = new Map<number, RecordState>();
    for (const [record, state] of this.before) before.set(record, byService(state));
    const unknownSinceQueued: UnknownSinceQueued = { noBoot: [], otherBoot: [] };
    const named = header.named_batch === 1;
    return {
      started: header.started as string,
      input: header.input as string,
      records: Number(header.records),
      target: header.target as string,
      service: (header.service as string | null) ?? undefined,
      batch: header.batch as string,
      digest: (header.digest as string | null) ?? undefined,
      digests: (header.digests as string | null) ?? undefined,
      namedBatch: named,
      inputFormat: (header.input_format as string | null) ?? undefined,
      skipInvalid: header.skip_invalid === 1,
      // The last run's count: each run reads the input again, perhaps fixed.
      rejected: Number(runs.at(-1)?.rejected ?? 0),
      states: settleQueued(states, before, boot, unknownSinceQueued),
      unknownSinceQueued,
    };
  }

  /** Takes the entry: applied to the records by the end of this turn, or an earlier flush(). */
  append(entry: JournalEntry): number {
    this.pending.push(entry);
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => {
        this.flushScheduled = false;
        try {
          this.flush();
        } catch {
          // Kept (broken): reported to whoever waits, flushes or syncs next.
        }
      });
    }
    return ++this.appended;
  }

  /** Applies every entry taken so far, in one transaction (kept by a kill, not a power cut). */
  flush(): void {
    if (this.broken !== undefined) throw this.broken;
    if (this.pending.length === 0) return;
    const entries = this.pending;
    this.pending = [];
    const waiting = this.waiting;
    this.waiting = undefined;
    try {
      this.sql.begin.run();
      for (const entry of entries) this.applyEntry(entry);
      for (const record of this.dirty) this.writeRecord(record);
      this.sql.commit.run();
    } catch (error) {
      if (this.db.isTransaction) this.db.exec('ROLLBACK');
      // What it holds in memory is no longer what is on disk: nothing more is written.
      this.broken = writeFailed(this.path, error);
      waiting?.reject(this.broken);
      throw this.broken;
    } finally {
      this.dirty.clear();
    }
    this.written += entries.length;
    waiting?.resolve(undefined);
  }

  /**
   * Resolves once the entry with this sequence number is committed (where a kill cannot undo
   * it, a power cut can): by the flush at the end of this turn, which commits every entry taken
   * in it at once, not one commit each.
   */
  committedThrough(sequence: number): Promise<void> {
    if (this.broken !== undefined) return Promise.reject(this.broken);
    if (this.written >= sequence) return Promise.resolve();
    this.waiting ??= Promise.withResolvers<undefined>();
    return this.waiting.promise;
  }

  private applyEntry(entry: RecordEntry | ClockEntry): void {
    if (entry.type === 'clock') {
      const ahead = parseHttpDate(entry.service) - Date.parse(entry.at);
      if (Number.isFinite(ahead)) this.sql.clock.run(ahead, this.run.index);
      return;
    }
    const was = this.states.get(entry.record)?.outcome;
    const keysBefore = this.run.keys.length;
    const problem = apply(this.states, this.before, entry, this.run);
    if (problem !== undefined) throw new Error(`the journal ${this.path}: ${problem}`);
    for (const { keySent, run } of this.run.keys.splice(keysBefore)) this.keyRuns.set(keySent, run);
    if (!this.narrowUpdate(entry, was)) this.dirty.add(entry.record);
  }

  /**
   * The row changed by the columns the entry changes, where its change is one of the common
   * few (a queued record sent, a sent one created, a created one printed); false otherwise,
   * and the whole row is written at the end of the flush, as its state is then.
   */
  private narrowUpdate(entry: RecordEntry, was: string | undefined): boolean {
    const state = this.states.get(entry.record);
    if (entry.type === 'sending' && was === 'queued') {
      this.sql.sent.run(entry.record);
    } else if (entry.type === 'created' && was === 'unknown' && state?.outcome === 'created') {
      this.sql.created.run(stringifyJson(state.pet), Number(state.replayed), entry.record);
    } else if (entry.type === 'printed') {
      this.sql.printed.run(entry.record);
    } else {
      return false;
    }
    return true;
  }

  private writeRecord(record: number): void {
    const state = this.states.get(record);
    if (state === undefined) {
      this.sql.remove.run(record);
      return;
    }
    const prior = this.before.get(record);
    this.sql.upsert.run({
      ...stateRow(record, state, this.keyRuns.get(state.keySent) ?? this.run.index),
      prior:
        prior === undefined
          ? null
          : JSON.stringify({
              state: stateRow(record, prior, 0),
              keyRun: this.keyRuns.get(prior.keySent) ?? this.run.index,
            }),
    });
  }

  /** Resolves once the entry with this sequence number, and all before it, are on disk. */
  syncedThrough(sequence: number): Promise<void> {
    return this.log.syncedThrough(sequence, () => {
      this.flush();
      return this.written;
    });
  }

  /** Every entry taken, on disk; the lock let go. */
  async close(): Promise<void> {
    if (this.closed) return;
    try {
      await this.syncedThrough(this.appended);
    } finally {
      this.closed = true;
      await this.log.close();
      closeJournal(this.db);
    }
  }
}
