import { writeSync } from 'node:fs';
import { link, open, readFile, unlink, type FileHandle } from 'node:fs/promises';
import { UsageError } from '../core/errors.js';
import { randomHex } from '../core/random-hex.js';
import {
  encodeEntry,
  type EncodedEntry,
  type JournalEntry,
  type RunHeader,
} from './journal-entries.js';
import { lockJournal, lockJournalFile } from './journal-lock.js';

/** What a bulk run needs of its journal: the runner's view of JournalWriter. */
export interface JournalSink {
  readonly path: string;
  /** Appends the entry (written out by the end of this turn); returns its sequence number. */
  append(entry: JournalEntry | EncodedEntry): number;
  /** Writes every appended entry to the file now. */
  flush(): void;
  /** Resolves once the entry with this sequence number, and all before it, are on disk. */
  syncedThrough(sequence: number): Promise<void>;
}

/** Writes a new file whole and syncs it to disk. */
async function writeWhole(path: string, bytes: Buffer): Promise<void> {
  const handle = await open(path, 'wx', 0o600);
  try {
    await handle.writeFile(bytes);
    await handle.datasync();
  } finally {
    await handle.close();
  }
}

/** Gives the file `from` the name `to`, which must not exist (EEXIST); keeps `from`. */
async function linkInPlace(from: string, to: string): Promise<void> {
  try {
    await link(from, to);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP') throw error;
    // No hard links on this file system: an exclusive create, written at once.
    await writeWhole(to, await readFile(from));
  }
}

function journalError(path: string, error: unknown): UsageError {
  const code = (error as NodeJS.ErrnoException).code ?? String(error);
  return new UsageError(`cannot write the journal ${path}: ${code}`, {
    hint: 'Free some space or fix its permissions, then complete the run with --resume.',
  });
}

/**
 * Appends entries. An appended entry is written to the file (where it survives this process
 * being killed, not power loss) at the latest at the end of the current turn of the event
 * loop, and before anything that flushes: flush(), a disk sync, close(). Entries appended in
 * one turn go out in one system call. Disk syncs of concurrent requests are shared, so they do
 * not queue for one sync each.
 */
export class JournalWriter implements JournalSink {
  private appended = 0;
  private synced = 0;
  private syncing: Promise<void> | undefined;
  /** Appended, not yet written to the file. */
  private pending: Buffer[] = [];
  private flushScheduled = false;
  /** The journal ended in a line torn by a crash, which append() ended with a line break. */
  endedTornLine = false;

  private constructor(
    readonly path: string,
    private readonly file: FileHandle,
    private readonly unlock: () => Promise<void>,
  ) {}

  /**
   * A new journal that starts with its run header: the file appears with the header already
   * in it and on disk (written aside, then linked into place), so a run killed at any moment
   * leaves either no journal or one that can be resumed. An existing file is never overwritten.
   */
  static async create(
    path: string,
    header: RunHeader,
    locksFolder: string,
  ): Promise<JournalWriter> {
    let unlock = await lockJournal(path, locksFolder);
    const scratch = `${path}.${randomHex(6)}.new`;
    try {
      await writeWhole(scratch, encodeEntry(header));
      await linkInPlace(scratch, path);
      // Now that the file exists, its own lock too: a link to it is the same journal.
      const beside = unlock;
      const file = await lockJournalFile(path, locksFolder);
      unlock = async () => {
        await file();
        await beside();
      };
      return new JournalWriter(path, await open(path, 'a', 0o600), unlock);
    } catch (error) {
      await unlock();
      if (error instanceof UsageError) throw error;
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') {
        throw new UsageError(`the journal ${path} already exists`, {
          hint: `Resume that run with --resume ${path}, or give another --journal.`,
        });
      }
      throw new UsageError(`cannot create the journal ${path}: ${code ?? String(error)}`, {
        hint: 'Choose a writable place with --journal FILE.',
      });
    } finally {
      await unlink(scratch).catch(() => undefined);
    }
  }

  /**
   * An existing journal, to continue, whose lock the caller took (before reading it, so no
   * other run changed it since); a line torn by a crash is ended first.
   */
  static async append(path: string, unlock: () => Promise<void>): Promise<JournalWriter> {
    let file: FileHandle;
    try {
      file = await open(path, 'a+', 0o600);
    } catch (error) {
      await unlock();
      throw journalError(path, error);
    }
    const writer = new JournalWriter(path, file, unlock);
    const { size } = await file.stat();
    if (size > 0) {
      const last = Buffer.alloc(1);
      await file.read(last, 0, 1, size - 1);
      if (last[0] !== 0x0a) {
        writer.append(Buffer.from('\n'));
        writer.flush();
        writer.endedTornLine = true;
      }
    }
    return writer;
  }

  /**
   * Appends the entry: it is written to the file by the end of this turn of the event loop, or
   * by an earlier flush(). Returns its sequence number, for syncedThrough().
   */
  append(entry: JournalEntry | EncodedEntry): number {
    this.pending.push(Buffer.isBuffer(entry) ? entry : encodeEntry(entry));
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

  /** Writes every appended entry to the file now, in one system call. */
  flush(): void {
    if (this.pending.length === 0) return;
    const bytes = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending);
    this.pending = [];
    let done = 0;
    try {
      while (done < bytes.length) done += writeSync(this.file.fd, bytes, done);
    } catch (error) {
      // What was not written stays pending, so a later flush neither loses nor repeats it.
      this.pending = [bytes.subarray(done)];
      throw journalError(this.path, error);
    }
  }

  /** Resolves once the entry with this sequence number, and all before it, are on disk. */
  async syncedThrough(sequence: number): Promise<void> {
    while (this.synced < sequence) await this.syncOnce();
  }

  /** Appends the entry and resolves once it is on disk. */
  async write(entry: JournalEntry): Promise<void> {
    this.append(entry);
    await this.sync();
  }

  /** Resolves once every entry appended so far is on disk. */
  async sync(): Promise<void> {
    await this.syncedThrough(this.appended);
  }

  /** Joins the disk sync under way, or starts one covering every entry appended so far. */
  private async syncOnce(): Promise<void> {
    if (!this.syncing) {
      this.flush();
      const upTo = this.appended;
      this.syncing = this.file
        .datasync()
        .then(
          () => {
            this.synced = Math.max(this.synced, upTo);
          },
          (error: unknown) => {
            throw journalError(this.path, error);
          },
        )
        .finally(() => (this.syncing = undefined));
    }
    await this.syncing;
  }

  async close(): Promise<void> {
    try {
      this.flush();
      await this.sync();
    } finally {
      await this.file.close();
      await this.unlock();
    }
  }
}
