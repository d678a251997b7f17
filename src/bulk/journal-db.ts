import { DatabaseSync } from 'node:sqlite';
import { UsageError } from '../core/errors.js';
import { parseJson, stringifyJson } from '../core/json.js';
import type { Pet } from '../core/interface.js';
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

/** A run's journal is in use: another run holds its lock. */
export class JournalBusyError extends UsageError {}

export type Row = Record<string, unknown>;

function busy(path: string): JournalBusyError {
  return new JournalBusyError(
    `the journal ${path} is in use by another petstore run (it holds the journal's lock)`,
    { hint: 'Wait for that run to end, or end it; then run this again.' },
  );
}

export function alreadyThere(path: string): UsageError {
  return new UsageError(`the journal ${path} already exists`, {
    hint: `Resume that run with --resume ${path}, or give another --journal.`,
  });
}

function isBusy(error: unknown): boolean {
  return (error as { errcode?: unknown }).errcode === 5 || /database is locked/.test(String(error));
}

/** The database, opened and locked for this process alone until it is closed. */
export function openLocked(path: string): DatabaseSync {
  let db: DatabaseSync;
  try {
    db = new DatabaseSync(path, { timeout: 0 });
  } catch (error) {
    throw new UsageError(`cannot open the journal ${path}: ${String(error)}`, {
      hint: 'Check the path and its permissions.',
    });
  }
  try {
    // Exclusive: the lock, once taken, stays until close; WAL lets a commit skip the disk sync
    // (synchronous=NORMAL) where a kill, not a power cut, is what must be survived.
    db.exec('PRAGMA locking_mode = EXCLUSIVE; PRAGMA journal_mode = WAL');
    db.exec('PRAGMA synchronous = NORMAL; BEGIN EXCLUSIVE; COMMIT');
    return db;
  } catch (error) {
    db.close();
    if (isBusy(error)) throw busy(path);
    // SQLITE_NOTADB: a file of another kind, an NDJSON journal of 0.1.0 among them.
    if ((error as { errcode?: unknown }).errcode === 26) throw notThisFormat(path);
    throw new UsageError(`cannot open the journal ${path}: ${String(error)}`, {
      hint: 'Check the path and its permissions.',
    });
  }
}

export function notThisFormat(path: string): UsageError {
  return new UsageError(
    `${path} is not a petstore journal of this version (journals are SQLite databases; one of an earlier format was a text file); nothing was changed`,
    { hint: 'Give --resume the journal a run named on its first stderr line (Journal: PATH).' },
  );
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

export function rowState(row: Row, keySent: KeySent): RecordState | Queued {
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
  const error = typeof row.error === 'string' ? (JSON.parse(row.error) as ErrorSummary) : undefined;
  return { outcome, ...common, ...(error ? { error } : {}) };
}
