import type { HistoryEntry } from './entry.js';
import type { HistoryStore } from './store.js';

/** Entries kept in memory before they are written in one transaction. */
const BATCH = 500;
/** How long an entry waits for others before it is written anyway. */
const FLUSH_AFTER_MS = 250;

/**
 * Keeps the history for one process: entries are written in batches (a bulk run's thousands
 * of records cost a transaction per 500), at the latest a quarter second after they came, and
 * at close. Recording never fails a command: a store that cannot be opened or written is said
 * once, as a warning, and the writes go on unrecorded.
 */
export class HistoryRecorder {
  private pending: HistoryEntry[] = [];
  private store: HistoryStore | undefined;
  private broken = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly open: () => HistoryStore,
    private readonly warn: (message: string) => void,
    /** Entries older than this (ms) are removed once the store is first opened; none: kept. */
    private readonly retentionMs: number | undefined,
  ) {}

  record(entry: HistoryEntry): void {
    if (this.broken) return;
    this.pending.push(entry);
    if (this.pending.length >= BATCH) {
      this.flush();
      return;
    }
    if (this.timer === undefined) {
      this.timer = setTimeout(() => {
        this.flush();
      }, FLUSH_AFTER_MS);
      // A pending write of the history keeps no process alive: close() writes it.
      this.timer.unref();
    }
  }

  /** Writes what is pending now. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.broken || this.pending.length === 0) return;
    const entries = this.pending;
    this.pending = [];
    try {
      if (this.store === undefined) {
        this.store = this.open();
        if (this.retentionMs !== undefined) this.store.prune(Date.now() - this.retentionMs);
      }
      this.store.append(entries);
    } catch (error) {
      this.broken = true;
      const reason = error instanceof Error ? error.message : String(error);
      this.warn(
        `the history of writes could not be written (${reason}); this run's writes go unrecorded`,
      );
    }
  }

  close(): void {
    this.flush();
    try {
      this.store?.close();
    } catch {
      // Closing fails only if it is already closed.
    }
    this.store = undefined;
  }
}
