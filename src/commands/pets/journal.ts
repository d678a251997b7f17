import { hash } from 'node:crypto';
import { writeSync } from 'node:fs';
import { open, readFile, type FileHandle } from 'node:fs/promises';
import { UsageError } from '../../core/errors.js';
import { lockJournal } from './journal-lock.js';
import { parseJson, stringifyJson } from '../../core/json.js';
import type { NewPet, Pet } from '../../core/types.js';

/**
 * The journal of a bulk add: an append-only NDJSON file. Before a record's request is sent,
 * its position, a digest of its content and its Idempotency-Key are written and flushed to
 * disk; after, its outcome; and once its pet is on stdout, that it was printed. A run killed at
 * any moment (even kill -9) leaves a journal that says, for every record, whether it was created
 * (with the pet, and whether printed), rejected, or unknown (sent, no answer recorded), and at
 * worst a torn last line, which is ignored.
 */

export type ErrorSummary = { code: string; message: string; status: number };

export type JournalEntry =
  | {
      type: 'run' | 'resume';
      version: 1;
      input: string;
      records: number;
      target: string;
      /** What the run sent to: the base URL, or "sandbox" for the embedded one. */
      service?: string;
      at: string;
    }
  | { type: 'sending'; record: number; digest: string; key: string }
  | { type: 'created'; record: number; pet: Pet }
  | { type: 'printed'; record: number }
  /** A record journaled as sending that the run then did not send after all. */
  | { type: 'withdrawn'; record: number }
  | { type: 'failed' | 'unknown'; record: number; error: ErrorSummary };

type RecordEntry = Exclude<JournalEntry, { type: 'run' | 'resume' }>;

/** What the journal says of one record (1-based position), after every entry is applied. */
export type RecordState =
  | { outcome: 'created'; digest: string; key: string; pet: Pet; printed: boolean }
  | { outcome: 'failed' | 'unknown'; digest: string; key: string; error?: ErrorSummary };

export interface JournalContents {
  /** The input path the run read, or "-" for stdin. */
  input: string;
  records: number;
  /** How the first run named its target, and what it sent to (absent in early journals). */
  target: string;
  service: string | undefined;
  states: Map<number, RecordState>;
}

/** The digest a record is recognised by when a run is resumed. */
export function recordDigest(pet: NewPet): string {
  return hash('sha256', stringifyJson(pet)).slice(0, 32);
}

export function journalReadError(path: string, error: unknown): UsageError {
  const code = (error as NodeJS.ErrnoException).code ?? 'unknown error';
  return new UsageError(`cannot read the journal ${path}: ${code}`, {
    hint: 'Give the path the first line of the interrupted run named.',
  });
}

function notAJournal(path: string): UsageError {
  return new UsageError(`${path} is not a petstore journal: it does not start with a run header`, {
    hint: 'Give --resume the journal a run named on its first stderr line (Journal: PATH), not its input.',
  });
}

function damaged(path: string, line: number, why: string): UsageError {
  return new UsageError(`the journal ${path} is damaged at line ${line}: ${why}`, {
    hint: 'A journal is only ever appended to by petstore; restore it from where it came.',
  });
}

export async function readJournal(path: string): Promise<JournalContents> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw journalReadError(path, error);
  }
  const lines = text.split('\n');
  let header:
    { input: string; records: number; target: string; service: string | undefined } | undefined;
  const states = new Map<number, RecordState>();
  for (const [index, line] of lines.entries()) {
    if (line === '') continue;
    let parsed: JournalEntry;
    try {
      parsed = parseJson(line) as JournalEntry;
    } catch {
      // A line torn by a crash: the last one, or the last before a resumed run began.
      const next = lines.slice(index + 1).find((l) => l !== '');
      if (next === undefined || next.startsWith('{"type":"resume"')) continue;
      throw damaged(path, index + 1, 'not JSON');
    }
    if (parsed.type === 'run' || parsed.type === 'resume') {
      // Parsed from a file: the type says what petstore writes, not what may be there.
      if ((parsed.version as number) !== 1) {
        throw damaged(path, index + 1, 'written by another version');
      }
      header ??= {
        input: parsed.input,
        records: parsed.records,
        target: parsed.target,
        service: parsed.service,
      };
      continue;
    }
    const entry = parsed as RecordEntry;
    if (!header) throw notAJournal(path);
    const known = states.get(entry.record);
    if (entry.type === 'sending') {
      states.set(entry.record, { outcome: 'unknown', digest: entry.digest, key: entry.key });
    } else if (!known) {
      throw damaged(path, index + 1, `an outcome for record ${entry.record}, never sent`);
    } else if (entry.type === 'created') {
      states.set(entry.record, {
        outcome: 'created',
        digest: known.digest,
        key: known.key,
        pet: entry.pet,
        printed: false,
      });
    } else if (entry.type === 'withdrawn') {
      if (known.outcome === 'unknown') states.delete(entry.record);
    } else if (entry.type === 'printed') {
      if (known.outcome !== 'created') {
        throw damaged(path, index + 1, `record ${entry.record} printed, never created`);
      }
      known.printed = true;
    } else {
      states.set(entry.record, {
        outcome: entry.type,
        digest: known.digest,
        key: known.key,
        error: entry.error,
      });
    }
  }
  if (!header) throw notAJournal(path);
  return { ...header, states };
}

/** An entry made ready to append, so appending it later costs one system call. */
export type EncodedEntry = Buffer;

export function encodeEntry(entry: JournalEntry): EncodedEntry {
  return Buffer.from(stringifyJson(entry) + '\n');
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
export class JournalWriter {
  private appended = 0;
  private synced = 0;
  private syncing: Promise<void> | undefined;
  /** Appended, not yet written to the file. */
  private pending: Buffer[] = [];
  private flushScheduled = false;

  private constructor(
    readonly path: string,
    private readonly file: FileHandle,
    private readonly unlock: () => Promise<void>,
  ) {}

  /** A new journal; an existing file is never overwritten. */
  static async create(path: string): Promise<JournalWriter> {
    const unlock = await lockJournal(path);
    try {
      return new JournalWriter(path, await open(path, 'ax', 0o600), unlock);
    } catch (error) {
      await unlock();
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') {
        throw new UsageError(`the journal ${path} already exists`, {
          hint: `Resume that run with --resume ${path}, or give another --journal.`,
        });
      }
      throw new UsageError(`cannot create the journal ${path}: ${code ?? String(error)}`, {
        hint: 'Choose a writable place with --journal FILE.',
      });
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
