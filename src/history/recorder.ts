import { sqliteFailure } from '../core/sqlite.js';
import type { HistoryEntry } from './entry.js';
import type { HistoryStore } from './store.js';

/** Entries kept in memory before they are written in one transaction. */
const BATCH = 500;
/** How long an entry waits for others before it is written anyway. */
const FLUSH_AFTER_MS = 250;
/**
 * Entries kept while another program holds the history locked, tried again each flush; past
 * this many the run's memory would grow with its writes, so the rest go unrecorded.
 */
const HELD_MOST = 20 * BATCH;
/** How long closing waits in all for a lock another program holds: with its last try, under 1 s. */
const CLOSE_WAIT_MS = 750;

/**
 * Keeps the history for one process: entries are written in batches (a bulk run's thousands
 * of records cost a transaction per 500), at the latest a quarter second after they came, and
 * at close. Recording never fails or stalls a command: a store another program holds locked is
 * tried again at the next flush (each try waits a tenth of a second at most), and at close for
 * under a second in all; a store that cannot be opened or written, or stays locked, is said once, as
 * a warning, and the writes go on unrecorded.
 */
export class HistoryRecorder {
  private pending: HistoryEntry[] = [];
  private store: HistoryStore | undefined;
  private broken = false;
  private pruned = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    /** Opens the store, waiting at most so long (ms) for another process's lock. */
    private readonly open: (waitMs: number) => HistoryStore,
    private readonly warn: (message: string) => void,
    /** Entries older than this (ms) are removed once the store is first opened; none: kept. */
    private readonly retentionMs: number | undefined,
  ) {}

  record(entry: HistoryEntry): void {
    if (this.broken) return;
    this.pending.push(entry);
    if (this.pending.length % BATCH === 0) {
      this.flush();
      return;
    }
    this.later();
  }

  /** Writes what is pending now, if the store is free within a moment. */
  flush(): void {
    this.write(0);
  }

  close(): void {
    this.write(CLOSE_WAIT_MS);
    try {
      this.store?.close();
    } catch {
      // Closing fails only if it is already closed.
    }
    this.store = undefined;
  }

  private later(): void {
    if (this.timer !== undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, FLUSH_AFTER_MS);
    // A pending write of the history keeps no process alive: close() writes it.
    this.timer.unref();
  }

  private write(waitMs: number): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.broken || this.pending.length === 0) return;
    const closing = waitMs > 0;
    try {
      const store = (this.store ??= this.open(waitMs));
      if (this.retentionMs !== undefined && !this.pruned) {
        store.prune(Date.now() - this.retentionMs, waitMs);
        this.pruned = true;
      }
      store.append(this.pending, waitMs);
      this.pending = [];
    } catch (error) {
      if (sqliteFailure(error) === 'transient' && !closing && this.pending.length < HELD_MOST) {
        // Held by another program: kept, and tried again at the next flush.
        this.later();
        return;
      }
      this.stop(error);
    }
  }

  private stop(error: unknown): void {
    const lost = this.pending.length;
    this.broken = true;
    this.pending = [];
    const writes = lost === 1 ? '1 write' : `${lost} writes`;
    if (sqliteFailure(error) === 'transient') {
      this.warn(
        `the history of writes is locked by another program; ${writes} of this run and any after go unrecorded. End the program that holds it (sqlite3 on the history file, a backup tool) for the next run to be recorded.`,
      );
      return;
    }
    const reason = error instanceof Error ? error.message : String(error);
    this.warn(
      `the history of writes could not be written (${reason}); this run's writes go unrecorded`,
    );
  }
}
