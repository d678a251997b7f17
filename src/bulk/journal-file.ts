import { command, option, phrase, type Hint, type Phrase } from '../core/phrase.js';
import {
  closeSync,
  constants,
  copyFileSync,
  existsSync,
  linkSync,
  openSync,
  readSync,
  realpathSync,
  statSync,
} from 'node:fs';
import type { DatabaseSync } from 'node:sqlite';
import { getSystemErrorMessage } from 'node:util';
import { UsageError } from '../core/errors.js';
import { loadSqlite, sqliteFailure } from '../core/sqlite.js';
import { READABLE_FORMATS } from './journal-db.js';

/**
 * A journal's file: made whole or not at all, opened under SQLite's exclusive lock by one run
 * at a time, refused unchanged when it is not a journal of this format, and the words for
 * each way that goes wrong.
 */

/** A journal is in use: another run (or a reader, for a moment) holds its lock. */
export class JournalBusyError extends UsageError {}

export function journalInUse(path: string): JournalBusyError {
  return new JournalBusyError(`the journal ${path} is in use by another petstore run`, {
    hint: 'Wait for that run to end, then run this again. Its lock ends with it, however it ends (even killed): there is nothing to clear.',
  });
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

export function alreadyThere(path: string): UsageError {
  if (isFolder(path)) {
    return new UsageError(`the journal ${path} is a folder; a journal is a file`, {
      hint: phrase`Give ${option('journal')} a file name, or leave it out (one is made in the journals folder).`,
    });
  }
  return new UsageError(`the journal ${path} already exists`, {
    hint: phrase`Resume that run with ${option('resume', path)}, or give another ${option('journal')}.`,
  });
}

function notWhole(path: string, run?: { batch: string; input: string }): UsageError {
  // The way out that needs no log: the same input as the same batch sends each record with
  // the key it had, and the service answers those it created from their first request.
  const again: Phrase =
    run === undefined
      ? []
      : phrase` Or send its input (${run.input === '-' ? 'standard input' : run.input}) again as the same batch, ${command('pets import', { batchId: run.batch })}: each record goes with the key it had, and the service answers the ones it created from their first request, within its key window.`;
  return new UsageError(
    `the journal ${path} is not whole here: the last commits of the run killed while it held it are in a file NAME-wal beside the name that run used, and ${path}-wal is not there (or the journal is damaged); nothing was changed`,
    {
      hint: [
        'If the journal was moved or reached through another name, move its -wal file beside it (never a copy), or use the name the run used.',
        ...again,
      ],
    },
  );
}

/** The batch and input of a journal's file, as far as the file itself holds them. */
function runOf(db: DatabaseSync): { batch: string; input: string } | undefined {
  try {
    const row = db.prepare('SELECT batch, input FROM journal').get();
    return typeof row?.batch === 'string' && typeof row.input === 'string'
      ? { batch: row.batch, input: row.input }
      : undefined;
  } catch {
    return undefined;
  }
}

export function orphanLog(path: string, orphan: string): UsageError {
  return new UsageError(
    `${orphan} is there without its journal: the last commits of a run killed while it used ${path}, which has since moved or gone; nothing was sent`,
    {
      hint: phrase`Move that journal back to ${path} and resume it, or give this run another ${option('journal')}; remove ${orphan} only if that journal is gone for good.`,
    },
  );
}

export function notThisFormat(path: string): UsageError {
  return new UsageError(
    `${path} is not a petstore journal of this version (journals are SQLite databases; one of an earlier format was a text file); nothing was changed`,
    {
      hint: phrase`Give ${option('resume')} the journal a run named on its first stderr line (Journal: PATH).`,
    },
  );
}

export function noJournal(path: string): UsageError {
  return new UsageError(`no journal ${path}: no such file, and no journal of a batch of that id`, {
    hint: phrase`Give the path or the batch id the interrupted run named (${command('journal list')} shows them).`,
  });
}

export function cannot(doing: string, path: string, error: unknown, hint: Hint): UsageError {
  const { code, errno } = error as NodeJS.ErrnoException;
  // The system's words for it (EROFS, read-only file system), not the path again.
  const why =
    code !== undefined && typeof errno === 'number'
      ? `${code}, ${getSystemErrorMessage(errno)}`
      : (error as Error).message;
  return new UsageError(`cannot ${doing} the journal ${path}: ${why}`, { hint });
}

const HEADER = Buffer.from('SQLite format 3\0');

/**
 * What the file at `path` is, read from its first bytes without opening it as a database
 * (SQLite would take an empty or foreign file for a new one and change it): not a database,
 * or one whose last run closed it (`clean`) or did not (see OPEN_MARK).
 */
function fileState(path: string): 'other' | 'clean' | 'unclean' {
  let fd: number;
  try {
    if (!statSync(path).isFile()) return 'other';
    fd = openSync(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw noJournal(path);
    throw cannot('read', path, error, 'Check the path and its permissions.');
  }
  try {
    const first = Buffer.alloc(64);
    if (readSync(fd, first, 0, first.length, 0) !== first.length) return 'other';
    if (!first.subarray(0, HEADER.length).equals(HEADER)) return 'other';
    // The header's user version (bytes 60-63), as the database file itself holds it.
    return first.readInt32BE(60) !== 0 ? 'unclean' : 'clean';
  } finally {
    // Before SQLite opens the file: closing any descriptor of it drops its locks.
    closeSync(fd);
  }
}

/**
 * The mark a journal's file carries while a run has it open (SQLite's user version, put in
 * the file itself as the run opens it, taken off as it closes): OPEN_MARK and the number of
 * runs the file held then. A file still so marked was not closed: its last commits are in the
 * log SQLite keeps beside the name that run used, and without that log it is not whole, so it
 * is refused rather than read as it was before them; unless the file holds more runs than when
 * it was marked: then another program (`sqlite3 JOURNAL "select ..."`) folded the log into it
 * and removed it, and the file is whole. (A mark of 1, made by versions before the count, says
 * nothing of the runs.)
 */
const OPEN_MARK = 0x10000;
const OLD_OPEN_MARK = 1;

/**
 * SQLite keeps a journal's last commits in these files beside the name a run opened it by,
 * until the run folds them in as it ends: a killed run leaves them.
 */
export const sidecars = (path: string) => [`${path}-wal`, `${path}-journal`];

/**
 * The database at `path`, locked for this process alone until it is closed: SQLite's exclusive
 * lock on the file, which the kernel keeps on its inode (every name of the file meets it) and
 * drops the moment this process ends. It must be a journal of this format, reached by its one
 * name; anything else is refused unchanged.
 */
export function openLocked(path: string, purpose: 'write' | 'read' = 'write'): DatabaseSync {
  const state = fileState(path);
  if (state === 'other') throw notThisFormat(path);
  // Looked for before SQLite opens the file, which makes an empty log where there is none.
  const log = existsSync(`${realpathSync(path)}-wal`);
  const db = openDatabase(path);
  try {
    // Exclusive: the lock, once taken, stays until close. Taken before anything is read, and
    // the file checked before anything is written.
    db.exec('PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE');
    // Free, but not closed by its last run, and its log is not beside this name: unless that
    // run was closing as the file was read, and has closed it since (it says so now).
    if (state === 'unclean' && !log && markedOpen(db) && !foldedSinceMarked(db)) {
      throw notWhole(path, runOf(db));
    }
    const problem = notJournal(db);
    if (problem !== undefined) throw problem === 'empty' ? notWhole(path) : notThisFormat(path);
    db.exec('COMMIT');
    // Read only, and closed by its last run: nothing is written (its age stays its own).
    if (purpose === 'read' && state === 'clean') return db;
    // WAL lets a commit skip the disk sync (synchronous=NORMAL) where a kill, not a power cut,
    // is what must be survived; in exclusive mode it needs no shared-memory file.
    db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL');
    // Marked open in the file itself (the checkpoint puts it there), before anything else.
    const runs = db.prepare('SELECT count(*) AS n FROM runs').get()?.n;
    db.exec(`PRAGMA user_version = ${OPEN_MARK + Number(runs)}; PRAGMA wal_checkpoint(PASSIVE)`);
    marked.add(db);
    return db;
  } catch (error) {
    if (db.isTransaction) db.exec('ROLLBACK');
    db.close();
    if (error instanceof UsageError) throw error;
    if (sqliteFailure(error) === 'transient') throw journalInUse(path);
    if (sqliteFailure(error) === 'damaged') throw writeFailed(path, error);
    throw cannot('open', path, error, 'Check the path and its permissions.');
  }
}

function mark(db: DatabaseSync): number {
  return Number(db.prepare('PRAGMA user_version').get()?.user_version ?? 0);
}

/** Whether the journal says it is still open, as it holds that now. */
function markedOpen(db: DatabaseSync): boolean {
  return mark(db) !== 0;
}

/** The file holds a run that started after it was marked: its log was folded into it. */
function foldedSinceMarked(db: DatabaseSync): boolean {
  const marked = mark(db);
  if (marked === OLD_OPEN_MARK || marked < OPEN_MARK) return false;
  try {
    return Number(db.prepare('SELECT count(*) AS n FROM runs').get()?.n) > marked - OPEN_MARK;
  } catch {
    return false;
  }
}

/** The journals this process marked open (see OPEN_MARK). */
const marked = new WeakSet<DatabaseSync>();

/** Closes a journal opened by openLocked: its log folded into the file, its mark taken off. */
export function closeJournal(db: DatabaseSync): void {
  try {
    if (marked.has(db)) db.exec('PRAGMA user_version = 0');
  } finally {
    // Checkpoints the log into the file (the mark's removal with it), then removes the log.
    db.close();
  }
}

export function openDatabase(path: string): DatabaseSync {
  try {
    return new (loadSqlite().DatabaseSync)(path, { timeout: 0 });
  } catch (error) {
    throw cannot('open', path, error, 'Check the path and its permissions.');
  }
}

/** Gives the file `from` the name `to`, which must not exist; keeps `from`. */
export function linkInPlace(from: string, to: string): void {
  try {
    linkSync(from, to);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw alreadyThere(to);
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP') throw error;
    // No hard links on this file system: a copy that refuses to replace a file.
    try {
      copyFileSync(from, to, constants.COPYFILE_EXCL);
    } catch (copyError) {
      if ((copyError as NodeJS.ErrnoException).code === 'EEXIST') throw alreadyThere(to);
      throw copyError;
    }
  }
}

/**
 * What the database is, if not a journal of this format: `empty` (no tables: all it held is in
 * a -wal file not beside it), or `other` (another format, or another program's database).
 */
function notJournal(db: DatabaseSync): 'empty' | 'other' | undefined {
  try {
    const tables = db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'").get();
    if (tables?.n === 0) return 'empty';
    const row = db.prepare('SELECT format FROM journal').get();
    return READABLE_FORMATS.includes(row?.format) ? undefined : 'other';
  } catch (error) {
    // A page SQLite finds unsound is damage, said as such (openLocked), not another format.
    if (sqliteFailure(error) === 'damaged') throw error;
    return 'other';
  }
}

/**
 * openLocked, tried again for up to `waitMs` while another holds the lock: a reader (journal
 * list, show) holds it for a moment only; a run holds it until it ends, and is then named busy.
 * Waits between tries without blocking the event loop.
 */
export async function openLockedWaiting(
  path: string,
  waitMs: number,
  purpose: 'write' | 'read' = 'write',
): Promise<DatabaseSync> {
  const until = Date.now() + waitMs;
  for (;;) {
    try {
      return openLocked(path, purpose);
    } catch (error) {
      if (!(error instanceof JournalBusyError) || Date.now() >= until) throw error;
    }
    await new Promise((done) => setTimeout(done, 10 + Math.random() * 30));
  }
}

/** Why a commit failed, said for what it is: a damaged file, or one that cannot be written. */
export function writeFailed(path: string, error: unknown): UsageError {
  const why = (error as Error).message;
  if (sqliteFailure(error) === 'damaged') {
    return new UsageError(`the journal ${path} is damaged: ${why}`, {
      hint: phrase`Only petstore writes a journal; restore it from where it came, then complete the run with ${option('resume')}.`,
    });
  }
  return new UsageError(`cannot write the journal ${path}: ${why}`, {
    hint: phrase`Free some space or fix its permissions, then complete the run with ${option('resume')}.`,
  });
}
