import type { DatabaseSync, StatementSync } from 'node:sqlite';

type Result = { ok: true; value: unknown } | { ok: false; error: unknown };

interface QueuedWrite {
  work: () => unknown;
  done: (value: unknown) => void;
  failed: (error: unknown) => void;
}

/**
 * The sandbox's writes, committed together: each turn of the event loop's writes share one
 * transaction, one commit and one log write, which is most of a write's cost.
 */
export class WriteBatcher {
  private readonly queued: QueuedWrite[] = [];
  private readonly begin: StatementSync;
  private readonly commit: StatementSync;
  private readonly savepoint: StatementSync;
  private readonly release: StatementSync;
  private readonly rollbackToSavepoint: StatementSync;

  constructor(
    private readonly db: DatabaseSync,
    /** Told how many writes each committed batch held. */
    private readonly afterWrites: (count: number) => void,
  ) {
    this.begin = db.prepare('BEGIN IMMEDIATE');
    this.commit = db.prepare('COMMIT');
    this.savepoint = db.prepare('SAVEPOINT one_write');
    this.release = db.prepare('RELEASE one_write');
    this.rollbackToSavepoint = db.prepare('ROLLBACK TO one_write');
  }

  /**
   * Runs `work` in a write transaction shared with the writes queued in the same turn of the
   * event loop: one commit (and one log write) for all of them, which is most of a write's
   * cost. One that throws changes nothing and fails alone. Resolves once the transaction is
   * committed.
   */
  write<T>(work: () => T): Promise<T> {
    return new Promise<T>((done, failed) => {
      const queued = this.queued.push({ work, done: done as (value: unknown) => void, failed });
      if (queued === 1) setImmediate(() => this.commitQueued());
    });
  }

  private commitQueued(): void {
    const batch = this.queued.splice(0);
    // Optimistically without a savepoint per write (two statements each); when one throws,
    // the whole batch is rolled back and run again with them, so that it fails alone. A write
    // is a function of the database, so running it again after a rollback is safe.
    let results = this.runBatch(batch, false);
    if (batch.length > 1 && results?.some((result) => !result.ok)) {
      results = this.runBatch(batch, true);
    }
    if (results === undefined) return;
    this.afterWrites(batch.length);
    batch.forEach((item, index) => {
      const result = results[index]!;
      if (result.ok) item.done(result.value);
      else item.failed(result.error);
    });
  }

  /**
   * Runs the batch in one transaction. Without savepoints, stops at the first write that throws
   * and rolls everything back. Undefined when the transaction itself failed (every write is
   * told so).
   */
  private runBatch(batch: QueuedWrite[], isolated: boolean): Result[] | undefined {
    const results: Result[] = [];
    try {
      this.begin.run();
    } catch (error) {
      for (const item of batch) item.failed(error);
      return undefined;
    }
    for (const item of batch) {
      if (isolated) this.savepoint.run();
      try {
        results.push({ ok: true, value: item.work() });
        if (isolated) this.release.run();
      } catch (error) {
        results.push({ ok: false, error });
        if (!isolated) {
          this.db.exec('ROLLBACK');
          return results;
        }
        this.rollbackToSavepoint.run();
        this.release.run();
      }
    }
    try {
      this.commit.run();
    } catch (error) {
      if (this.db.isTransaction) this.db.exec('ROLLBACK');
      for (const item of batch) item.failed(error);
      return undefined;
    }
    return results;
  }
}
