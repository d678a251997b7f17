import { closeSync, openSync, readSync, statSync } from 'node:fs';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { UsageError } from '../core/errors.js';
import { parseJson, stringifyJson } from '../core/json.js';
import { isInt64 } from '../core/int64.js';
import type { Pet } from '../core/interface.js';
import { loadSqlite, sqliteFailure } from '../core/sqlite.js';
import type { ErrorSummary } from './journal-entries.js';
import type { KeySent, Queued, RecordState } from './record-states.js';

/**
 * The SQLite side of a journal (see journal-store.ts): its tables, how it is opened and locked,
 * and a record's state as a row and back.
 */

/** The layout of this format; another is refused, never read as this one. */
export const FORMAT = 1;

export const SCHEMA = `
CREATE TABLE journal (
  format INTEGER NOT NULL,
  batch TEXT NOT NULL,
  input TEXT NOT NULL,
  records INTEGER NOT NULL CHECK (records >= 1),
  target TEXT NOT NULL,
  service TEXT,
  started TEXT NOT NULL,
  digest TEXT,
  digests TEXT,
  named_batch INTEGER NOT NULL,
  input_format TEXT
);
CREATE TABLE runs (
  run INTEGER PRIMARY KEY,
  at TEXT NOT NULL,
  boot TEXT,
  service_ahead_ms REAL
);
CREATE TABLE records (
  record INTEGER PRIMARY KEY,
  outcome TEXT NOT NULL CHECK (outcome IN ('queued', 'created', 'failed', 'unknown')),
  digest TEXT NOT NULL,
  key TEXT NOT NULL,
  attempt INTEGER NOT NULL,
  key_run INTEGER NOT NULL REFERENCES runs (run),
  queued_boot TEXT,
  pet TEXT,
  printed INTEGER,
  replayed INTEGER,
  error TEXT,
  prior TEXT
);
`;

/** The statements a journal is written with, each prepared once. */
export type Statements = Record<
  'begin' | 'commit' | 'upsert' | 'remove' | 'sent' | 'created' | 'printed' | 'clock',
  StatementSync
>;

export function statements(db: DatabaseSync): Statements {
  const sql = (text: string) => db.prepare(text);
  return {
    begin: sql('BEGIN'),
    commit: sql('COMMIT'),
    upsert: sql(
      `INSERT OR REPLACE INTO records (record, outcome, digest, key, attempt, key_run, queued_boot, pet, printed, replayed, error, prior)
       VALUES (:record, :outcome, :digest, :key, :attempt, :key_run, :queued_boot, :pet, :printed, :replayed, :error, :prior)`,
    ),
    remove: sql('DELETE FROM records WHERE record = ?'),
    // The three changes most records go through, each a column or two of its row.
    sent: sql("UPDATE records SET outcome = 'unknown', queued_boot = NULL WHERE record = ?"),
    created: sql(
      "UPDATE records SET outcome = 'created', pet = ?, printed = 0, replayed = ?, error = NULL, prior = NULL WHERE record = ?",
    ),
    printed: sql('UPDATE records SET printed = 1 WHERE record = ?'),
    clock: sql('UPDATE runs SET service_ahead_ms = ? WHERE run = ? AND service_ahead_ms IS NULL'),
  };
}

/** A journal is in use: another run (or a reader, for a moment) holds its lock. */
export class JournalBusyError extends UsageError {}

export type Row = Record<string, unknown>;

export function journalInUse(path: string): JournalBusyError {
  return new JournalBusyError(`the journal ${path} is in use by another petstore run`, {
    hint: 'Wait for that run to end, then run this again. Its lock ends with it, however it ends (even killed): there is nothing to clear.',
  });
}

export function alreadyThere(path: string): UsageError {
  return new UsageError(`the journal ${path} already exists`, {
    hint: `Resume that run with --resume ${path}, or give another --journal.`,
  });
}

export function notThisFormat(path: string): UsageError {
  return new UsageError(
    `${path} is not a petstore journal of this version (journals are SQLite databases; one of an earlier format was a text file); nothing was changed`,
    { hint: 'Give --resume the journal a run named on its first stderr line (Journal: PATH).' },
  );
}

export function noJournal(path: string): UsageError {
  return new UsageError(`no journal ${path}: no such file, and no journal of a batch of that id`, {
    hint: 'Give the path or the batch id the interrupted run named (petstore journal list shows them).',
  });
}

function cannot(doing: string, path: string, error: unknown, hint: string): UsageError {
  const code = (error as NodeJS.ErrnoException).code;
  const why = code !== undefined && !code.startsWith('ERR_') ? code : (error as Error).message;
  return new UsageError(`cannot ${doing} the journal ${path}: ${why}`, { hint });
}

const HEADER = Buffer.from('SQLite format 3\0');

/**
 * Whether the file at `path` is an SQLite database, read from its first bytes without opening
 * it as one (SQLite would take an empty or foreign file for a new database and change it).
 */
function isDatabaseFile(path: string): boolean {
  let fd: number;
  try {
    if (!statSync(path).isFile()) return false;
    fd = openSync(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw noJournal(path);
    throw cannot('read', path, error, 'Check the path and its permissions.');
  }
  try {
    const first = Buffer.alloc(HEADER.length);
    return readSync(fd, first, 0, first.length, 0) === first.length && first.equals(HEADER);
  } finally {
    closeSync(fd);
  }
}

/**
 * The database at `path`, locked for this process alone until it is closed: SQLite's exclusive
 * lock on the file, which the kernel keeps on its inode (every name of the file meets it) and
 * drops the moment this process ends. `create` makes the file (never over one that is there);
 * else it must be a journal of this format, and anything else is refused unchanged.
 */
export function openLocked(path: string, mode: 'create' | 'open'): DatabaseSync {
  if (mode === 'create') {
    try {
      // The file made by us, alone (O_EXCL), private: SQLite then finds it empty and new.
      closeSync(openSync(path, 'wx', 0o600));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw alreadyThere(path);
      throw cannot('create', path, error, 'Choose a writable place with --journal FILE.');
    }
  } else if (!isDatabaseFile(path)) {
    throw notThisFormat(path);
  }
  let db: DatabaseSync;
  try {
    db = new (loadSqlite().DatabaseSync)(path, { timeout: 0 });
  } catch (error) {
    throw cannot('open', path, error, 'Check the path and its permissions.');
  }
  try {
    // Exclusive: the lock, once taken, stays until close. Taken before anything is read, and
    // the format checked before anything is written.
    // Small pages: most commits change one record's row, and write each page they touch.
    if (mode === 'create') db.exec('PRAGMA page_size = 1024');
    db.exec('PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE');
    if (mode === 'open' && !isJournal(db)) throw notThisFormat(path);
    db.exec('COMMIT');
    // WAL lets a commit skip the disk sync (synchronous=NORMAL) where a kill, not a power cut,
    // is what must be survived; in exclusive mode it needs no shared-memory file.
    db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL');
    return db;
  } catch (error) {
    if (db.isTransaction) db.exec('ROLLBACK');
    db.close();
    if (error instanceof UsageError) throw error;
    if (sqliteFailure(error) === 'transient') throw journalInUse(path);
    if (sqliteFailure(error) === 'damaged') throw notThisFormat(path);
    throw cannot('open', path, error, 'Check the path and its permissions.');
  }
}

function isJournal(db: DatabaseSync): boolean {
  try {
    const row = db.prepare('SELECT format FROM journal').get();
    return row?.format === FORMAT;
  } catch {
    return false;
  }
}

/**
 * openLocked, tried again for up to `waitMs` while another holds the lock: a reader (journal
 * list, show) holds it for a moment only; a run holds it until it ends, and is then named busy.
 * Waits between tries without blocking the event loop.
 */
export async function openLockedWaiting(path: string, waitMs: number): Promise<DatabaseSync> {
  const until = Date.now() + waitMs;
  for (;;) {
    try {
      return openLocked(path, 'open');
    } catch (error) {
      if (!(error instanceof JournalBusyError) || Date.now() >= until) throw error;
    }
    await new Promise((done) => setTimeout(done, 10 + Math.random() * 30));
  }
}

/** A state as a row, and back. */
export function stateRow(record: number, state: RecordState | Queued, keyRun: number) {
  const created = state.outcome === 'created' ? state : undefined;
  const failed = state.outcome === 'failed' || state.outcome === 'unknown' ? state : undefined;
  return {
    record,
    outcome: state.outcome,
    digest: state.digest,
    key: state.key,
    attempt: state.attempt,
    key_run: keyRun,
    queued_boot: state.outcome === 'queued' ? (state.boot ?? null) : null,
    pet: created ? stringifyJson(created.pet) : null,
    printed: created ? Number(created.printed) : null,
    replayed: created ? Number(created.replayed) : null,
    error: failed?.error ? JSON.stringify(failed.error) : null,
  };
}

/** What is wrong with a row petstore would never have written, if anything. */
function rowProblem(row: Row): string | undefined {
  const text = (value: unknown) => typeof value === 'string' && value !== '';
  if (!text(row.digest) || !text(row.key)) return 'a record without its digest or key';
  if (typeof row.attempt !== 'number' || !Number.isSafeInteger(row.attempt) || row.attempt < 1) {
    return 'a record whose attempt is not a whole number from 1';
  }
  if (row.outcome === 'created') {
    const pet = typeof row.pet === 'string' ? (parseJson(row.pet) as Partial<Pet> | null) : null;
    if (typeof pet !== 'object' || pet === null || Array.isArray(pet) || !isInt64(pet.id)) {
      return 'a created record without its pet';
    }
  }
  if (row.error !== null && row.error !== undefined) {
    const error =
      typeof row.error === 'string' ? (parseJson(row.error) as Partial<ErrorSummary> | null) : null;
    const whole =
      typeof error?.code === 'string' &&
      typeof error.message === 'string' &&
      Number.isInteger(error.status);
    if (!whole) return 'an error without its code, message or status';
  }
  return undefined;
}

/** The state a row holds; a row petstore would never have written is thrown as damage. */
function rowState(row: Row, keySent: KeySent): RecordState | Queued {
  const problem = rowProblem(row);
  if (problem !== undefined) throw new Error(`record ${String(row.record)}: ${problem}`);
  const common = {
    digest: row.digest as string,
    key: row.key as string,
    attempt: Number(row.attempt),
    keySent,
  };
  const outcome = row.outcome as (RecordState | Queued)['outcome'];
  if (outcome === 'queued') {
    return { outcome, ...common, boot: (row.queued_boot as string | null) ?? undefined };
  }
  if (outcome === 'created') {
    return {
      outcome,
      ...common,
      pet: parseJson(row.pet as string) as Pet,
      printed: row.printed === 1,
      replayed: row.replayed === 1,
    };
  }
  const error = typeof row.error === 'string' ? (parseJson(row.error) as ErrorSummary) : undefined;
  return { outcome, ...common, ...(error ? { error } : {}) };
}

/**
 * One row of the records table: the record, its state, and its state before the attempt under
 * way (if any). `sentIn` gives when the run of that number started. A row petstore would never
 * have written is thrown as damage.
 */
export function recordRow(
  row: Row,
  records: number,
  sentIn: (run: number) => KeySent,
): { record: number; state: RecordState | Queued; prior: RecordState | undefined } {
  const record = Number(row.record);
  if (record < 1 || record > records) {
    throw new Error(`record ${record}, past the ${records} of the input`);
  }
  const state = rowState(row, sentIn(Number(row.key_run)));
  if (typeof row.prior !== 'string') return { record, state, prior: undefined };
  const prior = parseJson(row.prior) as { state?: Row | null; keyRun: number } | null;
  if (
    typeof prior?.state !== 'object' ||
    prior.state === null ||
    prior.state.outcome === 'queued'
  ) {
    throw new Error(`record ${record}: an earlier attempt that is not one`);
  }
  return { record, state, prior: rowState(prior.state, sentIn(prior.keyRun)) as RecordState };
}
