import { chmodSync, closeSync, lstatSync, mkdirSync, openSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import { loadSqlite, retryTransient } from '../core/sqlite.js';
import type { HistoryEntry, HistoryOutcome, HistoryVia } from './entry.js';

/**
 * The history of writes: one SQLite file in the state folder (0600), shared by every petstore
 * process of the user. WAL and a busy timeout let many processes append at once; each append
 * is one short transaction (a bulk run's records go in batches).
 */

const SCHEMA = `
CREATE TABLE IF NOT EXISTS writes (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  at TEXT NOT NULL,
  via TEXT NOT NULL,
  client TEXT,
  profile TEXT,
  service TEXT,
  operation TEXT NOT NULL,
  method TEXT NOT NULL,
  path TEXT NOT NULL,
  idempotency_key TEXT,
  request_id TEXT,
  outcome TEXT NOT NULL,
  status INTEGER NOT NULL,
  result_id TEXT,
  batch TEXT,
  record INTEGER,
  sent TEXT,
  error TEXT,
  attempts INTEGER NOT NULL,
  duration_ms INTEGER NOT NULL,
  user TEXT,
  host TEXT,
  trace TEXT
);
CREATE INDEX IF NOT EXISTS writes_at ON writes (at);
CREATE INDEX IF NOT EXISTS writes_batch ON writes (batch);
`;

/** Columns added since the first history: a history made before gains them, empty. */
const ADDED_COLUMNS = ['user', 'host', 'trace'];
/** Made once the added columns are there (they are not in a history made before). */
const LATER_INDEXES = 'CREATE INDEX IF NOT EXISTS writes_result ON writes (result_id);';

const COLUMNS: [keyof HistoryEntry, string][] = [
  ['at', 'at'],
  ['via', 'via'],
  ['client', 'client'],
  ['profile', 'profile'],
  ['service', 'service'],
  ['operation', 'operation'],
  ['method', 'method'],
  ['path', 'path'],
  ['idempotencyKey', 'idempotency_key'],
  ['requestId', 'request_id'],
  ['outcome', 'outcome'],
  ['status', 'status'],
  ['resultId', 'result_id'],
  ['batch', 'batch'],
  ['record', 'record'],
  ['sent', 'sent'],
  ['error', 'error'],
  ['attempts', 'attempts'],
  ['durationMs', 'duration_ms'],
  ['user', 'user'],
  ['host', 'host'],
  ['trace', 'trace'],
];

/** Which entries to list, newest first. */
export interface HistoryFilter {
  /** Only entries at or after this time (ms since the epoch). */
  since?: number | undefined;
  profile?: string | undefined;
  via?: HistoryVia | undefined;
  batch?: string | undefined;
  outcomes?: readonly HistoryOutcome[] | undefined;
  /** Only the writes about this pet: the one that created it, and any sent to its path. */
  pet?: string | undefined;
  /** Only the writes that sent a pet of this name (exactly). */
  name?: string | undefined;
  /** Only the writes sent in this W3C trace (its 32 hex digits). */
  trace?: string | undefined;
  limit: number;
}

/**
 * How long one statement waits for another process's transaction: petstore's own appends hold
 * the lock for milliseconds. A lock held longer (another program's open transaction) is waited
 * out by the caller, who picks how long: a command's run must not stall on it.
 */
const BUSY_TIMEOUT_MS = 100;
/** How long a reader or pruner (a `history` command) waits for the lock in all. */
const READER_WAIT_MS = 5_000;

export class HistoryStore {
  private constructor(private readonly db: DatabaseSync) {}

  /**
   * Opens the history at `path`, made (0600, in a 0700 folder) when it does not exist, waiting
   * at most `waitMs` for a lock another process holds.
   */
  static open(path: string, waitMs = READER_WAIT_MS): HistoryStore {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    // Made 0600 before SQLite opens it: its WAL and shared-memory files take the same mode.
    // One made wider (by hand, a copy) is made 0600 again where the system has modes; but not
    // through a link: the file it names is the user's to set, and may be shared on purpose.
    // Not opened unless a regular file (or none yet): opening a FIFO waits for a writer forever.
    const found = statSync(path, { throwIfNoEntry: false });
    if (found !== undefined && !found.isFile()) throw new Error(`${path} is not a regular file`);
    closeSync(openSync(path, 'a', 0o600));
    const own = lstatSync(path);
    if (process.platform !== 'win32' && !own.isSymbolicLink() && (own.mode & 0o077) !== 0) {
      chmodSync(path, 0o600);
    }
    const { DatabaseSync } = loadSqlite();
    const db = new DatabaseSync(path);
    try {
      db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
      retryTransient(() => {
        const { journal_mode: mode } = db.prepare('PRAGMA journal_mode').get() as {
          journal_mode: string;
        };
        if (mode !== 'wal') db.exec('PRAGMA journal_mode = WAL');
        db.exec('PRAGMA synchronous = NORMAL');
        db.exec(SCHEMA);
        addMissingColumns(db);
        db.exec(LATER_INDEXES);
      }, waitMs);
    } catch (error) {
      db.close();
      throw error;
    }
    return new HistoryStore(db);
  }

  /**
   * Appends the entries in one transaction, waiting at most `waitMs` for a lock another
   * process holds; then throws SQLite's busy error (sqliteFailure: 'transient').
   */
  append(entries: readonly HistoryEntry[], waitMs = READER_WAIT_MS): void {
    if (entries.length === 0) return;
    const names = COLUMNS.map(([, column]) => column);
    const insert = this.db.prepare(
      `INSERT INTO writes (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')})`,
    );
    retryTransient(() => {
      this.db.exec('BEGIN IMMEDIATE');
      try {
        for (const entry of entries) {
          insert.run(...COLUMNS.map(([field]) => (entry[field] ?? null) as SQLInputValue));
        }
        this.db.exec('COMMIT');
      } catch (error) {
        this.db.exec('ROLLBACK');
        throw error;
      }
    }, waitMs);
  }

  /** The entries the filter picks, newest first, all at once (see iterate). */
  list(filter: HistoryFilter): HistoryEntry[] {
    return [...this.iterate(filter)];
  }

  /** The entries the filter picks, newest first, read a row at a time as they are taken. */
  *iterate(filter: HistoryFilter): Generator<HistoryEntry> {
    const { sql, values } = selection(filter);
    const statement = this.db.prepare(`SELECT * ${sql} ORDER BY at DESC, id DESC LIMIT ?`);
    for (const row of statement.iterate(...values, filter.limit)) {
      yield entryOfRow(row);
    }
  }

  get(id: number): HistoryEntry | undefined {
    const row = this.db.prepare('SELECT * FROM writes WHERE id = ?').get(id);
    return row === undefined ? undefined : entryOfRow(row);
  }

  /** How many entries are older than `before` (ms since the epoch): what prune would remove. */
  countOlder(before: number): number {
    const row = this.db
      .prepare('SELECT count(*) AS n FROM writes WHERE at < ?')
      .get(new Date(before).toISOString()) as { n: number | bigint };
    return Number(row.n);
  }

  /**
   * Removes entries older than `before` (ms since the epoch); returns how many. `compact`: the
   * file is then rewritten to its new size (VACUUM), if no other process is using it meanwhile;
   * else it keeps its size, its free pages reused by later writes.
   */
  prune(before: number, waitMs = READER_WAIT_MS, compact = false): number {
    const result = retryTransient(
      () => this.db.prepare('DELETE FROM writes WHERE at < ?').run(new Date(before).toISOString()),
      waitMs,
    );
    const removed = Number(result.changes);
    if (compact && removed > 0) {
      try {
        this.db.exec('VACUUM');
        this.db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
      } catch {
        // Another process reads or writes it now: the space is reused, not given back.
      }
    }
    return removed;
  }

  close(): void {
    this.db.close();
  }
}

/** The FROM and WHERE of the entries a filter picks, and the values they take. */
function selection(filter: HistoryFilter): { sql: string; values: SQLInputValue[] } {
  {
    const where: string[] = [];
    const values: SQLInputValue[] = [];
    if (filter.since !== undefined) {
      where.push('at >= ?');
      values.push(new Date(filter.since).toISOString());
    }
    for (const [column, value] of [
      ['profile', filter.profile],
      ['via', filter.via],
      ['batch', filter.batch],
      ['trace', filter.trace?.toLowerCase()],
    ] as const) {
      if (value === undefined) continue;
      where.push(`${column} = ?`);
      values.push(value);
    }
    if (filter.outcomes !== undefined && filter.outcomes.length > 0) {
      where.push(`outcome IN (${filter.outcomes.map(() => '?').join(', ')})`);
      values.push(...filter.outcomes);
    }
    if (filter.pet !== undefined) {
      // Created by a POST to the pets collection and answered with its id; or sent to its path.
      where.push(
        "((result_id = ? AND (path LIKE '%/pets' OR path LIKE '%/pets?%')) OR path LIKE ? ESCAPE '\\' OR path LIKE ? ESCAPE '\\')",
      );
      const own = `%/pets/${likeText(filter.pet)}`;
      values.push(filter.pet, own, `${own}?%`);
    }
    if (filter.name !== undefined) {
      where.push("json_valid(sent) AND json_extract(sent, '$.name') = ?");
      values.push(filter.name);
    }
    return { sql: `FROM writes ${where.length ? `WHERE ${where.join(' AND ')}` : ''}`, values };
  }
}

/** Text matched literally by LIKE ... ESCAPE '\\'. */
function likeText(text: string): string {
  return text.replace(/[\\%_]/g, (found) => `\\${found}`);
}

/** Adds the columns of ADDED_COLUMNS a history made by an earlier petstore lacks. */
function addMissingColumns(db: DatabaseSync): void {
  const have = new Set(
    (db.prepare('PRAGMA table_info(writes)').all() as { name: string }[]).map((row) => row.name),
  );
  for (const column of ADDED_COLUMNS) {
    if (!have.has(column)) db.exec(`ALTER TABLE writes ADD COLUMN ${column} TEXT`);
  }
}

function entryOfRow(row: Record<string, unknown>): HistoryEntry {
  const entry: Record<string, unknown> = { id: Number(row.id) };
  for (const [field, column] of COLUMNS) {
    const value = row[column];
    entry[field] = value === null ? undefined : typeof value === 'bigint' ? Number(value) : value;
  }
  return entry as unknown as HistoryEntry;
}
