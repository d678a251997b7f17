import { option, phrase } from '../core/phrase.js';
import { open, type FileHandle } from 'node:fs/promises';
import { UsageError } from '../core/errors.js';

/**
 * Puts a journal's commits on disk. A commit (synchronous=NORMAL) is in SQLite's write-ahead
 * log, where a kill cannot undo it; syncing that file puts it where a power cut cannot either,
 * as synchronous=FULL would, but on a worker thread: answers keep being read meanwhile, and
 * one sync serves every request waiting for it. What a checkpoint moved out of the log into
 * the database, SQLite synced itself before the log was written over.
 */
export class LogSync {
  private synced = 0;
  private syncing: Promise<void> | undefined;
  private log: FileHandle | undefined;

  constructor(private readonly path: string) {}

  /**
   * Resolves once the entry with this sequence number is on disk; `commit` commits every
   * entry taken so far and says how many that is.
   */
  async syncedThrough(sequence: number, commit: () => number): Promise<void> {
    while (this.synced < sequence) await this.syncOnce(commit);
  }

  /** Joins the sync under way, or commits and starts one. */
  private syncOnce(commit: () => number): Promise<void> {
    if (this.syncing === undefined) {
      const upTo = commit();
      this.syncing = this.syncLog()
        .then(
          () => {
            this.synced = Math.max(this.synced, upTo);
          },
          (error: unknown) => {
            const code = (error as NodeJS.ErrnoException).code ?? String(error);
            throw new UsageError(`cannot write the journal ${this.path}: ${code}`, {
              hint: phrase`Free some space or fix its permissions, then complete the run with ${option('resume')}.`,
            });
          },
        )
        .finally(() => (this.syncing = undefined));
    }
    return this.syncing;
  }

  private async syncLog(): Promise<void> {
    // Opened for writing: Windows syncs no file opened read-only. SQLite's locks are on the
    // database file, which this never opens, so closing this drops none of them.
    this.log ??= await open(`${this.path}-wal`, 'r+');
    await this.log.datasync();
  }

  async close(): Promise<void> {
    await this.log?.close();
    this.log = undefined;
  }
}
