import { existsSync } from 'node:fs';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { UsageError } from '../core/errors.js';
import { parseHttpDate } from '../core/http-date.js';
import {
  alreadyThere,
  FORMAT,
  notThisFormat,
  openLocked,
  rowState,
  SCHEMA,
  stateRow,
  type Row,
} from './journal-db.js';
import type {
  ClockEntry,
  EncodedEntry,
  JournalEntry,
  RecordEntry,
  RunHeader,
} from './journal-entries.js';
import type { JournalContents } from './journal-read.js';
import type { JournalSink } from './journal-writer.js';
import {
  apply,
  settleQueued,
  type BeforeAttempt,
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
 * runner's entries say (record-states.ts, the rules the NDJSON journal was read by); what must
 * be on disk before a request goes out is committed with synchronous=FULL (syncedThrough).
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
  private appended = 0;
  private written = 0;
  private synced = 0;
  private flushScheduled = false;
  private readonly upsert: StatementSync;

  private constructor(
    readonly path: string,
    private readonly db: DatabaseSync,
  ) {
    this.upsert = db.prepare(
      `INSERT OR REPLACE INTO records (record, outcome, digest, key, attempt, key_run, queued_boot, pet, printed, replayed, error, prior)
       VALUES (:record, :outcome, :digest, :key, :attempt, :key_run, :queued_boot, :pet, :printed, :replayed, :error, :prior)`,
    );
  }

  /** A new journal holding the batch's header and its first run; an existing file is refused. */
  static create(path: string, header: RunHeader): JournalStore {
    // Never over a file that is there, of whatever kind (nor a look inside it).
    if (existsSync(path)) throw alreadyThere(path);
    const db = openLocked(path);
    const tables = db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'");
    if ((tables.get() as { n: number }).n > 0) {
      db.close();
      throw alreadyThere(path);
    }
    db.exec(`BEGIN; ${SCHEMA}`);
    db.prepare(
      `INSERT INTO journal VALUES (:format, :batch, :input, :records, :target, :service, :started, :digest, :digests, :named, :inputFormat)`,
    ).run({
      format: FORMAT,
      batch: header.batch ?? '',
      input: header.input,
      records: header.records,
      target: header.target,
      service: header.service ?? null,
      started: header.at,
      digest: header.digest ?? null,
      digests: header.digests ?? null,
      named: Number(header.namedBatch === true),
      inputFormat: header.inputFormat ?? null,
    });
    db.exec('COMMIT');
    const store = new JournalStore(path, db);
    store.startRun(header);
    return store;
  }

  /** An existing journal, locked, its records loaded; `run` starts this run's row. */
  static open(path: string): JournalStore {
    const db = openLocked(path);
    const store = new JournalStore(path, db);
    try {
      store.load();
    } catch (error) {
      db.close();
      throw error;
    }
    return store;
  }

  /** This run's row: its start and boot, which the records it queues and sends refer to. */
  startRun(header: Pick<RunHeader, 'at' | 'boot'>): void {
    this.flush();
    const index = this.run.index + 1;
    this.db
      .prepare('INSERT INTO runs (run, at, boot) VALUES (?, ?, ?)')
      .run(index, header.at, header.boot ?? null);
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
    this.header();
    const runs = this.db.prepare('SELECT run, at FROM runs ORDER BY run').all() as Row[];
    const at = new Map(runs.map((row) => [Number(row.run), Date.parse(row.at as string)]));
    this.run.index = runs.length - 1;
    for (const row of this.db.prepare('SELECT * FROM records').iterate() as Iterable<Row>) {
      const keyRun = Number(row.key_run);
      const keySent: KeySent = { at: at.get(keyRun) ?? 0, byService: undefined };
      this.keyRuns.set(keySent, keyRun);
      const record = Number(row.record);
      this.states.set(record, rowState(row, keySent));
      if (typeof row.prior === 'string') {
        const prior = JSON.parse(row.prior) as { state: Row; keyRun: number };
        const priorSent: KeySent = { at: at.get(prior.keyRun) ?? 0, byService: undefined };
        this.keyRuns.set(priorSent, prior.keyRun);
        this.before.set(record, rowState(prior.state, priorSent) as RecordState);
      }
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
    const unknownSinceQueued: UnknownSinceQueued = { noBoot: 0, otherBoot: 0 };
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
      states: settleQueued(states, before, boot, unknownSinceQueued),
      unknownSinceQueued,
    };
  }

  /** Takes the entry: applied to the records by the end of this turn, or an earlier flush(). */
  append(entry: JournalEntry | EncodedEntry): number {
    if (Buffer.isBuffer(entry)) throw new TypeError('a journal store takes entries, not bytes');
    this.pending.push(entry);
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => {
        this.flushScheduled = false;
        try {
          this.flush();
        } catch {
          // Reported to whoever flushes or syncs next: the entries stay pending.
        }
      });
    }
    return ++this.appended;
  }

  /** Applies every entry taken so far, in one transaction (kept by a kill, not a power cut). */
  flush(): void {
    if (this.pending.length === 0) return;
    const entries = this.pending;
    this.pending = [];
    try {
      this.db.exec('BEGIN');
      for (const entry of entries) this.applyEntry(entry);
      for (const record of this.dirty) this.writeRecord(record);
      this.db.exec('COMMIT');
    } catch (error) {
      if (this.db.isTransaction) this.db.exec('ROLLBACK');
      throw new UsageError(`cannot write the journal ${this.path}: ${String(error)}`, {
        hint: 'Free some space or fix its permissions, then complete the run with --resume.',
      });
    } finally {
      this.dirty.clear();
    }
    this.written += entries.length;
  }

  private applyEntry(entry: JournalEntry): void {
    // A run's header is its row (startRun); a compacted journal's `done` is of the old format.
    if ('version' in entry || entry.type === 'done') return;
    this.applyRecord(entry);
  }

  private applyRecord(entry: RecordEntry | ClockEntry): void {
    if (entry.type === 'clock') {
      const ahead = parseHttpDate(entry.service) - Date.parse(entry.at);
      if (Number.isFinite(ahead)) {
        this.db
          .prepare(
            'UPDATE runs SET service_ahead_ms = ? WHERE run = ? AND service_ahead_ms IS NULL',
          )
          .run(ahead, this.run.index);
      }
      return;
    }
    const keysBefore = this.run.keys.length;
    const problem = apply(this.states, this.before, entry, this.run);
    if (problem !== undefined) throw new Error(`the journal ${this.path}: ${problem}`);
    for (const { keySent, run } of this.run.keys.splice(keysBefore)) this.keyRuns.set(keySent, run);
    this.dirty.add(entry.record);
  }

  private writeRecord(record: number): void {
    const state = this.states.get(record);
    if (state === undefined) {
      this.db.prepare('DELETE FROM records WHERE record = ?').run(record);
      return;
    }
    const prior = this.before.get(record);
    this.upsert.run({
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
    if (this.synced >= sequence) return Promise.resolve();
    if (this.pending.length > 0) {
      // A commit with synchronous=FULL syncs the write-ahead log: every commit before it too.
      this.db.exec('PRAGMA synchronous = FULL');
      try {
        this.flush();
      } finally {
        this.db.exec('PRAGMA synchronous = NORMAL');
      }
    } else {
      // Nothing new to commit: a checkpoint syncs the log, then the database, all of it.
      this.db.exec('PRAGMA wal_checkpoint(PASSIVE)');
    }
    this.synced = this.written;
    return Promise.resolve();
  }

  /** Every entry taken, on disk; the lock let go. */
  async close(): Promise<void> {
    try {
      await this.syncedThrough(this.appended);
    } finally {
      this.db.close();
    }
  }
}
