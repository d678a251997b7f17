import { closeSync, existsSync, fdatasyncSync, openSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { UsageError } from '../core/errors.js';
import { option, phrase } from '../core/phrase.js';
import { randomHex } from '../core/random-hex.js';
import { inputRows, SCHEMA } from './journal-db.js';
import {
  alreadyThere,
  cannot,
  linkInPlace,
  openDatabase,
  orphanLog,
  sidecars,
} from './journal-file.js';

const DRAFT_SUFFIX = '.journal.new';
/** The name of a draft (see JournalDraft): `journal prune` removes those no run holds. */
export const DRAFT_NAME = /^\.draft-[0-9a-f]+\.journal\.new$/;

/**
 * A new journal, made beside where it will be under a name of its own while the input is
 * first read (each record's position and digest a row of `inputs`, written as they come, so
 * nothing is kept in memory per record), then given its header, synced, closed and linked into
 * place: a run killed at any moment leaves either no journal or one that can be resumed. An
 * existing file is never overwritten, nor is a killed run's log that lost its journal taken
 * for this one's. Until it is linked it holds SQLite's exclusive lock, like any journal in use.
 */
export class JournalDraft {
  private rows = 0;

  private constructor(
    private readonly scratch: string,
    private readonly db: DatabaseSync,
    private readonly insert: StatementSync,
  ) {}

  /** A draft in `folder`; `path`, when the journal's path is known, refused if taken now. */
  static begin(folder: string, path?: string): JournalDraft {
    if (path !== undefined) refuseTaken(path);
    const scratch = join(folder, `.draft-${randomHex(6)}${DRAFT_SUFFIX}`);
    try {
      closeSync(openSync(scratch, 'wx', 0o600));
    } catch (error) {
      throw cannot(
        'create',
        path ?? folder,
        error,
        phrase`Choose a writable place with ${option('journal', 'FILE')}.`,
      );
    }
    try {
      const db = openDatabase(scratch);
      // Small pages: most commits change one record's row, and write each page they touch.
      // No rollback journal: a draft a kill interrupts is no journal, and is thrown away.
      db.exec(
        'PRAGMA page_size = 1024; PRAGMA locking_mode = EXCLUSIVE; PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; BEGIN',
      );
      db.exec(SCHEMA);
      return new JournalDraft(scratch, db, db.prepare('INSERT INTO inputs VALUES (?, ?, ?)'));
    } catch (error) {
      rmSync(scratch, { force: true });
      throw cannot(
        'create',
        path ?? folder,
        error,
        phrase`Choose a writable place with ${option('journal', 'FILE')}.`,
      );
    }
  }

  /** A record of the input (1-based, valid ones counted), its position and digest (hex). */
  addInput(record: number, position: number, digest: string): void {
    this.insert.run(record, position, Buffer.from(digest.slice(0, 16), 'hex'));
    // Committed now and then: a transaction's pages are not all held until its end.
    if (++this.rows % 65536 === 0) this.db.exec('COMMIT; BEGIN');
  }

  /** The input's records as written so far (see inputRows). */
  inputs(): Generator<{ record: number; position: number; digest: string }> {
    return inputRows(this.db);
  }

  /** The journal, whole, at `path` (which must not exist): its header, then linked into place. */
  finish(path: string, fill: (db: DatabaseSync) => void): void {
    try {
      refuseTaken(path);
      fill(this.db);
      this.db.exec('COMMIT');
      this.db.close();
      // On disk before it has a name: a power cut leaves no journal, or a whole one.
      const fd = openSync(this.scratch, 'r+');
      try {
        fdatasyncSync(fd);
      } finally {
        closeSync(fd);
      }
      linkInPlace(this.scratch, path);
    } catch (error) {
      if (error instanceof UsageError) throw error;
      throw cannot(
        'create',
        path,
        error,
        phrase`Choose a writable place with ${option('journal', 'FILE')}.`,
      );
    } finally {
      this.discard();
    }
  }

  /** Throws the draft away (a refused input, a run that never started). */
  discard(): void {
    if (this.db.isOpen) this.db.close();
    for (const file of [this.scratch, ...sidecars(this.scratch)]) rmSync(file, { force: true });
  }
}

/** A journal that cannot be made at `path`: a file is there, or a killed run's log waits there. */
function refuseTaken(path: string): void {
  if (existsSync(path)) throw alreadyThere(path);
  const orphan = sidecars(path).find((file) => existsSync(file));
  if (orphan !== undefined) throw orphanLog(path, orphan);
}
