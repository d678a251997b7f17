import type { DatabaseSync } from 'node:sqlite';
import { loadSqlite, retryTransient } from '../core/sqlite.js';

/**
 * A pet as the interface's JSON, rendered by SQLite itself: integers keep every digit, and the
 * text is sent as it is, with no BigInt reads or re-serialisation in JavaScript. An absent
 * status stays absent.
 */
const PET_JSON = `CASE WHEN status IS NULL
    THEN json_object('id', id, 'name', name, 'categoryId', category_id)
    ELSE json_object('id', id, 'name', name, 'categoryId', category_id, 'status', status) END`;

export const INT64_MAX = 9223372036854775807n;
export const INT64_MIN = -9223372036854775808n;

/**
 * The pets, each with its JSON rendered once, when it is written (a stored generated column):
 * a list then joins stored text, at half the cost of rendering every row on every read.
 */
const PETS_TABLE = (name: string) => `CREATE TABLE IF NOT EXISTS ${name} (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  category_id INTEGER NOT NULL,
  status TEXT,
  json TEXT GENERATED ALWAYS AS (${PET_JSON}) STORED
);`;

/**
 * A file made by an earlier petstore has no json column, and SQLite cannot add a stored one
 * to a table: the table is copied into the new shape once, in one transaction.
 */
function upgradePetsTable(db: DatabaseSync): void {
  const hasJson = () =>
    (db.prepare('PRAGMA table_xinfo(pets)').all() as { name: string }[]).some(
      (column) => column.name === 'json',
    );
  if (hasJson()) return;
  db.exec('BEGIN IMMEDIATE');
  try {
    // Another process may have upgraded it while this one waited for the lock.
    if (!hasJson()) {
      db.exec(`${PETS_TABLE('pets_upgraded')}
        INSERT INTO pets_upgraded (id, name, category_id, status)
          SELECT id, name, category_id, status FROM pets;
        DROP TABLE pets;
        ALTER TABLE pets_upgraded RENAME TO pets;
        CREATE INDEX pets_by_status ON pets (status, id);`);
    }
    db.exec('COMMIT');
  } catch (error) {
    if (db.isTransaction) db.exec('ROLLBACK');
    throw error;
  }
}

const SCHEMA = `
${PETS_TABLE('pets')}
CREATE TABLE IF NOT EXISTS messages (
  id TEXT PRIMARY KEY,
  message TEXT NOT NULL,
  status TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS idempotency_keys (
  scope TEXT NOT NULL,
  key TEXT NOT NULL,
  request_digest TEXT NOT NULL,
  status INTEGER NOT NULL,
  body TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (scope, key)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS idempotency_keys_by_age ON idempotency_keys (created_at);
CREATE INDEX IF NOT EXISTS pets_by_status ON pets (status, id);`;

/**
 * Opens the file (or memory) with the sandbox's schema, upgrading a file an earlier petstore
 * made: WAL, a busy timeout so processes share it, and the sync level asked for.
 */
export function openSandboxFile(
  path: string,
  durable: boolean,
  busyTimeoutMs = 10_000,
): DatabaseSync {
  const { DatabaseSync } = loadSqlite();
  const db = new DatabaseSync(path);
  db.exec(`PRAGMA busy_timeout = ${Math.trunc(busyTimeoutMs)}`);
  // One budget for the whole setup: each step is safe to run again, and a lock another
  // process holds (busy, locked, a WAL index it is rebuilding: "locking protocol") passes.
  try {
    retryTransient(
      () => {
        // Reads the schema, so it can meet another process's lock too.
        db.exec(`PRAGMA synchronous = ${durable ? 'FULL' : 'NORMAL'}`);
        if (path !== ':memory:') {
          const { journal_mode: mode } = db.prepare('PRAGMA journal_mode').get() as {
            journal_mode: string;
          };
          if (mode !== 'wal') db.exec('PRAGMA journal_mode = WAL');
        }
        db.exec(SCHEMA);
        upgradePetsTable(db);
      },
      Math.max(busyTimeoutMs, 2_000),
    );
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}
