import { createHash } from 'node:crypto';
import { open, readFile, type FileHandle } from 'node:fs/promises';
import { UsageError } from '../../core/errors.js';
import { parseJson, stringifyJson } from '../../core/json.js';
import type { NewPet, Pet } from '../../core/types.js';

/**
 * The journal of a bulk add: an append-only NDJSON file. Before a record's request is sent,
 * its position, a digest of its content and its Idempotency-Key are written and flushed to
 * disk; after, its outcome. A run killed at any moment (even kill -9) leaves a journal that
 * says, for every record, whether it was created (with the pet), rejected, or unknown (sent,
 * no answer recorded), and at worst a torn last line, which is ignored.
 */

export type ErrorSummary = { code: string; message: string; status: number };

export type JournalEntry =
  | {
      type: 'run' | 'resume';
      version: 1;
      input: string;
      records: number;
      target: string;
      at: string;
    }
  | { type: 'sending'; record: number; digest: string; key: string }
  | { type: 'created'; record: number; pet: Pet }
  | { type: 'failed' | 'unknown'; record: number; error: ErrorSummary };

type RecordEntry = Exclude<JournalEntry, { type: 'run' | 'resume' }>;

/** What the journal says of one record (1-based position), after every entry is applied. */
export type RecordState =
  | { outcome: 'created'; digest: string; key: string; pet: Pet }
  | { outcome: 'failed' | 'unknown'; digest: string; key: string; error?: ErrorSummary };

export interface JournalContents {
  /** The input path the run read, or "-" for stdin. */
  input: string;
  records: number;
  states: Map<number, RecordState>;
}

/** The digest a record is recognised by when a run is resumed. */
export function recordDigest(pet: NewPet): string {
  return createHash('sha256').update(stringifyJson(pet)).digest('hex').slice(0, 32);
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
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown error';
    throw new UsageError(`cannot read the journal ${path}: ${code}`, {
      hint: 'Give the path the first line of the interrupted run named.',
    });
  }
  const lines = text.split('\n');
  let header: { input: string; records: number } | undefined;
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
      header ??= { input: parsed.input, records: parsed.records };
      continue;
    }
    const entry = parsed as RecordEntry;
    if (!header) throw damaged(path, index + 1, 'no run header before it');
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
      });
    } else {
      states.set(entry.record, {
        outcome: entry.type,
        digest: known.digest,
        key: known.key,
        error: entry.error,
      });
    }
  }
  if (!header) throw new UsageError(`${path} is not a petstore journal (no run header)`);
  return { ...header, states };
}

/**
 * Appends entries durably. Entries written while a flush is under way are flushed together
 * with the next one, so concurrent requests share one disk sync instead of queueing for one
 * each.
 */
export class JournalWriter {
  private pending: { line: string; done: () => void; failed: (error: unknown) => void }[] = [];
  private flushing: Promise<void> | undefined;

  private constructor(
    readonly path: string,
    private readonly file: FileHandle,
  ) {}

  /** A new journal; an existing file is never overwritten. */
  static async create(path: string): Promise<JournalWriter> {
    try {
      return new JournalWriter(path, await open(path, 'wx', 0o600));
    } catch (error) {
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

  /** An existing journal, to continue; a line torn by a crash is ended first. */
  static async append(path: string): Promise<JournalWriter> {
    const file = await open(path, 'a+', 0o600);
    const { size } = await file.stat();
    if (size > 0) {
      const last = Buffer.alloc(1);
      await file.read(last, 0, 1, size - 1);
      if (last[0] !== 0x0a) await file.write('\n');
    }
    return new JournalWriter(path, file);
  }

  /** Resolves once the entry is on disk. */
  write(entry: JournalEntry): Promise<void> {
    return new Promise((done, failed) => {
      this.pending.push({ line: stringifyJson(entry) + '\n', done, failed });
      this.flushing ??= this.flush();
    });
  }

  private async flush(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0);
      try {
        await this.file.write(batch.map((item) => item.line).join(''));
        await this.file.datasync();
        for (const item of batch) item.done();
      } catch (error) {
        const problem = new UsageError(
          `cannot write the journal ${this.path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
        );
        for (const item of batch) item.failed(problem);
      }
    }
    this.flushing = undefined;
  }

  async close(): Promise<void> {
    await this.flushing;
    await this.file.close();
  }
}
