import { realpathSync } from 'node:fs';
import type { DatabaseSync } from 'node:sqlite';
import type { UsageError } from '../core/errors.js';
import { parseHttpDate } from '../core/http-date.js';
import { stringifyJson } from '../core/json.js';
import { addLaterColumns, stateRow, statements, type Row, type Statements } from './journal-db.js';
import { closeJournal, openLocked, openLockedWaiting, writeFailed } from './journal-file.js';
import { damaged, JournalReader } from './journal-reader.js';
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
  type BeforeAttempt,
  type Queued,
  type RecordState,
  type RunRead,
} from './record-states.js';

export { damaged, type JournalCounts } from './journal-reader.js';

/**
 * How many records' states a run keeps between flushes: a few times those in motion (queued
 * ahead, in flight, awaiting their printed line), so most entries find their record without a
 * read; past it, all are let go (the rows have them).
 */
const WORKING_MOST = 4096;

/**
 * A bulk run's journal as one SQLite database: the batch (its input, target, digest), one row
 * per run, one row per record of the input (its position and digest), and one row per record
 * sent with its state, key, attempt and outcome. The run that opens it holds SQLite's exclusive
 * lock on the database file from start to end: a lock of the file's inode, which every name of
 * it meets (a hard link, a bind mount, another HOME), and which the kernel drops the moment its
 * holder ends, however it ends. Records change as the runner's entries say (record-states.ts),
 * committed as each turn of the event loop ends (or at once: flush), where a kill cannot undo
 * them; what must survive a power cut before a request goes out is synced to disk too
 * (syncedThrough, log-sync.ts).
 *
 * Nothing is kept in memory per record: a record's row is read when an entry concerns it and
 * let go once the entries of that turn are committed, and readers walk the rows a page at a
 * time, so a journal of millions of records is written and read in a few megabytes.
 */

/**
 * One journal, open and locked. `create` opens a new one (made by a JournalDraft); `open`
 * continues one; readers take its header, counts and records a page at a time.
 */
export class JournalStore extends JournalReader implements JournalSink {
  /**
   * The records the run's entries concern, as their rows hold them: read once, kept while the
   * run moves them on (queued, sending, created, printed), let go in bulk past WORKING_MOST.
   */
  private readonly working = new Map<number, RecordState | Queued>();
  private readonly workingBefore: BeforeAttempt = new Map();
  /** The records read into `working`: one withdrawn (no row, no state) is not read back. */
  private readonly touched = new Set<number>();
  private readonly run: RunRead = { boot: undefined, at: 0, index: -1 };
  private readonly dirty = new Set<number>();
  /** Records sent, and printed, in the flush under way: one statement each, at its end. */
  private readonly sent: number[] = [];
  private readonly printed: number[] = [];
  private readonly narrowed = new Set<number>();
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

  private constructor(path: string, db: DatabaseSync) {
    super(path, db);
    // SQLite names the log after the file's real path (a symlink resolved), as this must.
    this.log = new LogSync(realpathSync(path));
    this.sql = statements(db);
  }

  /** The journal a JournalDraft made at `path`, opened for its first run. */
  static create(path: string, header: RunHeader): JournalStore {
    // Opened as any journal is: another run may have taken it in between (busy, then).
    const store = new JournalStore(path, openLocked(path));
    store.load();
    store.startRun(header);
    return store;
  }

  /**
   * An existing journal, locked; startRun() starts this run's row. A reader holding it for a
   * moment is waited for (up to `waitMs`); a run holding it is busy.
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
      // A run that continues it reads every row first: a damaged one stops it before it sends.
      if (purpose === 'write') store.checkRows();
      return store;
    } catch (error) {
      closeJournal(db);
      throw damaged(path, error);
    }
  }

  /** The journal at `path`, read under its lock by `use`, then let go. */
  static async reading<T>(
    path: string,
    use: (journal: JournalStore) => T | Promise<T>,
    waitMs = 1000,
  ): Promise<T> {
    const store = await JournalStore.open(path, waitMs, 'read');
    try {
      return await use(store);
    } finally {
      closeJournal(store.db);
      store.closed = true;
    }
  }

  protected override load(): void {
    super.load();
    this.run.index = this.lastRun;
  }

  /** This run's row: its start and boot, which the records it queues and sends refer to. */
  startRun(header: Pick<RunHeader, 'at' | 'boot' | 'skipInvalid' | 'rejected' | 'trace'>): void {
    this.flush();
    const index = this.run.index + 1;
    addLaterColumns(this.db);
    this.db
      .prepare('INSERT INTO runs (run, at, boot, rejected, trace) VALUES (?, ?, ?, ?, ?)')
      .run(index, header.at, header.boot ?? null, header.rejected ?? 0, header.trace ?? null);
    if (header.skipInvalid === true) this.db.exec('UPDATE journal SET skip_invalid = 1');
    Object.assign(this.run, { index, at: Date.parse(header.at), boot: header.boot });
    this.runs.set(index, { at: this.run.at, ahead: undefined });
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
  override flush(): void {
    if (this.broken !== undefined) throw this.broken;
    if (this.pending.length === 0) return;
    const entries = this.pending;
    this.pending = [];
    const waiting = this.waiting;
    this.waiting = undefined;
    try {
      this.sql.begin.run();
      for (const entry of entries) this.applyEntry(entry);
      // Before the rows written whole, which hold the state these records ended the flush in.
      if (this.sent.length > 0) this.sql.sent.run(JSON.stringify(this.sent));
      if (this.printed.length > 0) this.sql.printed.run(JSON.stringify(this.printed));
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
      this.sent.length = 0;
      this.printed.length = 0;
      this.narrowed.clear();
      // Every row is on disk (or the journal broken): what is kept is only a cache of them.
      if (this.broken !== undefined || this.touched.size > WORKING_MOST) {
        this.working.clear();
        this.workingBefore.clear();
        this.touched.clear();
      }
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

  /** Reads a record's row into the flush's working states, once per flush. */
  private touch(record: number): void {
    if (this.touched.has(record)) return;
    this.touched.add(record);
    const row = this.rows(() => this.sql.state.get(record) as Row | undefined);
    if (row === undefined) return;
    const { state, prior } = this.rowOf(row);
    this.working.set(record, state);
    if (prior !== undefined) this.workingBefore.set(record, prior);
  }

  private applyEntry(entry: RecordEntry | ClockEntry): void {
    if (entry.type === 'clock') {
      const ahead = parseHttpDate(entry.service) - Date.parse(entry.at);
      if (!Number.isFinite(ahead)) return;
      this.sql.clock.run(ahead, this.run.index);
      const run = this.runs.get(this.run.index);
      if (run !== undefined) run.ahead ??= ahead;
      return;
    }
    this.touch(entry.record);
    const was = this.working.get(entry.record)?.outcome;
    const problem = apply(this.working, this.workingBefore, entry, this.run);
    if (problem !== undefined) throw new Error(`the journal ${this.path}: ${problem}`);
    if (!this.narrowUpdate(entry, was)) this.dirty.add(entry.record);
  }

  /**
   * The row changed by the columns the entry changes, where its change is one of the common
   * few (a record first queued, sent, created, printed); false otherwise,
   * and the whole row is written at the end of the flush, as its state is then.
   */
  private narrowUpdate(entry: RecordEntry, was: string | undefined): boolean {
    // A row written whole in this flush is written whole again at its end; and so is one
    // changed twice in it (the narrow changes run in kinds, not in order).
    if (this.dirty.has(entry.record) || this.narrowed.has(entry.record)) return false;
    this.narrowed.add(entry.record);
    const state = this.working.get(entry.record);
    if (entry.type === 'queued' && was === undefined && state?.outcome === 'queued') {
      const { digest, key, attempt, keySent, boot } = state;
      this.sql.queued.run(entry.record, digest, key, attempt, keySent.run, boot ?? null);
    } else if (entry.type === 'sending' && was === 'queued') {
      this.sent.push(entry.record);
    } else if (entry.type === 'created' && was === 'unknown' && state?.outcome === 'created') {
      this.sql.created.run(stringifyJson(state.pet), Number(state.replayed), entry.record);
    } else if (entry.type === 'printed') {
      this.printed.push(entry.record);
    } else {
      return false;
    }
    return true;
  }

  private writeRecord(record: number): void {
    const state = this.working.get(record);
    if (state === undefined) {
      this.sql.remove.run(record);
      return;
    }
    const prior = this.workingBefore.get(record);
    this.sql.upsert.run({
      ...stateRow(record, state),
      prior:
        prior === undefined
          ? null
          : JSON.stringify({ state: stateRow(record, prior), keyRun: prior.keySent.run }),
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
