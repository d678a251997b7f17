import { statSync } from 'node:fs';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { Int64 } from '../core/int64.js';
import { randomHex } from '../core/random-hex.js';

export interface StoredMessage {
  id: string;
  message: string;
  status: string;
  createdAt: string;
}

/**
 * A pet as the interface's JSON, rendered by SQLite itself: integers keep every digit, and the
 * text is sent as it is, with no BigInt reads or re-serialisation in JavaScript. An absent
 * status stays absent.
 */
const PET_JSON = `CASE WHEN status IS NULL
    THEN json_object('id', id, 'name', name, 'categoryId', category_id)
    ELSE json_object('id', id, 'name', name, 'categoryId', category_id, 'status', status) END`;

/** The file's write-ahead log is truncated when a checkpoint finds it larger than this. */
const WAL_LIMIT_BYTES = 32 * 1024 * 1024;
/** How many writes pass between two looks at the log's size. */
const WAL_CHECK_EVERY = 1000;

export interface DatabaseOptions {
  /** First id to assign. */
  idStart?: bigint | undefined;
  /**
   * synchronous=FULL: a commit survives power loss. By default (NORMAL, safe in WAL mode) the
   * last commits before a power loss may be lost, never corrupted; a crash of the process
   * loses nothing either way.
   */
  durable?: boolean | undefined;
}

/** node:sqlite without Node 22's ExperimentalWarning on the user's terminal. */
function loadSqlite(): typeof import('node:sqlite') {
  // The original is put back as it was, unbound, once the module is loaded.
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const emitWarning = process.emitWarning;
  process.emitWarning = function (warning: string | Error, ...rest: unknown[]) {
    if (String(warning).includes('SQLite')) return;
    Reflect.apply(emitWarning, process, [warning, ...rest]);
  };
  try {
    return process.getBuiltinModule('node:sqlite');
  } finally {
    process.emitWarning = emitWarning;
  }
}

const SETUP_ATTEMPTS = 40;

/**
 * Runs a setup step again while another process holds the file: switching a new file to WAL
 * can answer "database is locked" at once, without waiting on the busy timeout.
 */
function retryWhileLocked(step: () => void): void {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let attempt = 1; ; attempt++) {
    try {
      step();
      return;
    } catch (error) {
      const locked = error instanceof Error && /locked|busy/i.test(error.message);
      if (!locked || attempt >= SETUP_ATTEMPTS) throw error;
      Atomics.wait(pause, 0, 0, 10 + Math.random() * 40);
    }
  }
}

const INT64_MAX = 9223372036854775807n;
const INT64_MIN = -9223372036854775808n;

/** Every int64 id has been given: no pet can be added until the sandbox is reset. */
export class IdsExhaustedError extends Error {
  constructor() {
    super(`every pet id up to ${INT64_MAX} has been given`);
  }
}

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
    db.exec('ROLLBACK');
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

/** How often expired Idempotency-Keys are deleted (lookups ignore them at once). */
const PRUNE_EVERY_MS = 1000;

/** How long the sandbox remembers an Idempotency-Key: 24 hours, as Stripe does. */
export const IDEMPOTENCY_KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;

/** A response kept for an Idempotency-Key: status and body text, sent again as they were. */
export interface StoredResponse {
  status: number;
  body: string;
}

/** Where an Idempotency-Key is looked up: per route and per API key, and what was sent. */
export interface IdempotentRequest {
  scope: string;
  key: string;
  /** A digest of the request's content: the same key with other content is refused. */
  digest: string;
  /** Milliseconds since the epoch. */
  now: number;
}

export type IdempotentOutcome =
  | { kind: 'performed'; response: StoredResponse }
  | { kind: 'replayed'; response: StoredResponse }
  | { kind: 'key-reused'; response: undefined };

/**
 * The sandbox's storage: SQLite in a file (WAL, busy timeout, so several processes can share
 * it without losing a write) or in memory. ids are int64, assigned here.
 */
export class SandboxDatabase {
  private readonly db: DatabaseSync;
  private readonly path: string;
  private readonly idStart: bigint;
  private writesSinceWalCheck = 0;
  /** When expired Idempotency-Keys were last deleted (ms since the epoch). */
  private lastPruned = Number.NEGATIVE_INFINITY;
  private readonly queued: {
    work: () => unknown;
    done: (value: unknown) => void;
    failed: (error: unknown) => void;
  }[] = [];
  private readonly begin: StatementSync;
  private readonly commit: StatementSync;
  private readonly savepoint: StatementSync;
  private readonly release: StatementSync;
  private readonly rollbackToSavepoint: StatementSync;
  private readonly insertPet: StatementSync;
  private readonly selectPets: StatementSync;
  private readonly selectPetsByStatus: StatementSync;
  private readonly selectPetsAfter: StatementSync;
  private readonly selectPetsByStatusAfter: StatementSync;
  private readonly selectPet: StatementSync;
  private readonly insertMessage: StatementSync;
  private readonly forgetOldKeys: StatementSync;
  private readonly selectKey: StatementSync;
  private readonly insertKey: StatementSync;

  constructor(
    /** A SQLite file, or ':memory:'. */
    path: string,
    options: DatabaseOptions = {},
  ) {
    const { DatabaseSync } = loadSqlite();
    this.path = path;
    this.idStart = options.idStart ?? 1n;
    this.db = new DatabaseSync(path);
    this.db.exec('PRAGMA busy_timeout = 10000');
    this.db.exec(`PRAGMA synchronous = ${options.durable ? 'FULL' : 'NORMAL'}`);
    const db = this.db;
    retryWhileLocked(() => {
      if (path === ':memory:') return;
      const { journal_mode: mode } = db.prepare('PRAGMA journal_mode').get() as {
        journal_mode: string;
      };
      if (mode !== 'wal') db.exec('PRAGMA journal_mode = WAL');
    });
    retryWhileLocked(() => {
      db.exec(SCHEMA);
    });
    retryWhileLocked(() => upgradePetsTable(db));
    // One statement computes and takes the next id, atomically under SQLite's write lock.
    this.insertPet = this.db.prepare(
      `INSERT INTO pets (id, name, category_id, status)
       SELECT max(coalesce((SELECT max(id) FROM pets) + 1, :start), :start), :name, :categoryId, :status
       WHERE coalesce((SELECT max(id) FROM pets), 0) < ${INT64_MAX}
       RETURNING json`,
    );
    // One page: the JSON array, how many pets it holds and its last id as text (exact int64).
    // Whether more pets follow is a second statement, run only after a full page: as part of
    // this one it cost as much again as the page itself.
    const page = (where: string) =>
      this.db.prepare(
        `SELECT '[' || coalesce(group_concat(json, ','), '') || ']' AS json, count(*) AS count,
           CAST(max(id) AS TEXT) AS last
         FROM (SELECT id, json FROM pets WHERE ${where} id > :after ORDER BY id LIMIT :limit)`,
      );
    const more = (where: string) =>
      this.db.prepare(`SELECT EXISTS (SELECT 1 FROM pets WHERE ${where} id > :after) AS more`);
    this.selectPets = page('');
    this.selectPetsByStatus = page('status = :status AND');
    this.selectPetsAfter = more('');
    this.selectPetsByStatusAfter = more('status = :status AND');
    this.selectPet = this.db.prepare(`SELECT json FROM pets WHERE id = :id`);
    this.insertMessage = this.db.prepare(
      'INSERT INTO messages (id, message, status, created_at) VALUES (:id, :message, :status, :createdAt)',
    );
    this.begin = this.db.prepare('BEGIN IMMEDIATE');
    this.commit = this.db.prepare('COMMIT');
    this.savepoint = this.db.prepare('SAVEPOINT one_write');
    this.release = this.db.prepare('RELEASE one_write');
    this.rollbackToSavepoint = this.db.prepare('ROLLBACK TO one_write');
    this.forgetOldKeys = this.db.prepare('DELETE FROM idempotency_keys WHERE created_at < :before');
    // A key past its lifetime counts as unseen even before the pruning removes it.
    this.selectKey = this.db.prepare(
      `SELECT request_digest, status, body FROM idempotency_keys
       WHERE scope = :scope AND key = :key AND created_at >= :since`,
    );
    this.insertKey = this.db.prepare(
      `INSERT OR REPLACE INTO idempotency_keys (scope, key, request_digest, status, body, created_at)
       VALUES (:scope, :key, :digest, :status, :body, :now)`,
    );
  }

  /**
   * The first `limit` pets by id (with that status) after the id `after`, as the JSON array the
   * interface sends, and the last id when more pets follow it.
   */
  listPetsPage(query: { limit: number; status?: string | undefined; after?: bigint | undefined }): {
    json: string;
    nextAfter: string | undefined;
  } {
    const after = query.after ?? INT64_MIN;
    const { limit, status } = query;
    // node:sqlite refuses a named parameter a statement does not have, even when undefined.
    const [page, more, byStatus] = status
      ? [this.selectPetsByStatus, this.selectPetsByStatusAfter, { status }]
      : [this.selectPets, this.selectPetsAfter, {}];
    const [row] = page.all({ ...byStatus, limit, after }) as {
      json: string;
      count: number;
      last: string | null;
    }[];
    const { json, count, last } = row!;
    if (count < limit || last === null) return { json, nextAfter: undefined };
    const [next] = more.all({ ...byStatus, after: BigInt(last) }) as { more: number }[];
    return { json, nextAfter: next!.more ? last : undefined };
  }

  /** The created pet as JSON; throws IdsExhaustedError once the largest int64 id is given. */
  createPetJson(name: string, categoryId: Int64, status: string | undefined): string {
    // all(), not get(): a statement run to completion holds no read open, so checkpoints can
    // reset the write-ahead log.
    const [row] = this.insertPet.all({
      start: this.idStart,
      name,
      categoryId: BigInt(categoryId),
      status: status ?? null,
    }) as { json: string }[];
    if (!row) throw new IdsExhaustedError();
    return row.json;
  }

  getPetJson(id: bigint): string | undefined {
    const [row] = this.selectPet.all({ id }) as { json: string }[];
    return row?.json;
  }

  /**
   * Keeps the write-ahead log bounded: SQLite checkpoints it every 1000 pages, but a reader in
   * another process can keep it from starting over, and then it only grows.
   */
  private afterWrites(count: number): void {
    this.writesSinceWalCheck += count;
    if (this.path === ':memory:' || this.writesSinceWalCheck < WAL_CHECK_EVERY) return;
    this.writesSinceWalCheck = 0;
    let size: number;
    try {
      size = statSync(`${this.path}-wal`).size;
    } catch {
      return;
    }
    if (size > WAL_LIMIT_BYTES) this.db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  }

  addMessage(message: string): StoredMessage {
    const stored: StoredMessage = {
      id: `msg_${randomHex(8)}`,
      message,
      status: 'queued',
      createdAt: new Date().toISOString(),
    };
    this.insertMessage.run({ ...stored });
    return stored;
  }

  /**
   * Runs `work` in a write transaction shared with the writes queued in the same turn of the
   * event loop: one commit (and one log write) for all of them, which is most of a write's
   * cost. One that throws changes nothing and fails alone. Resolves once the transaction is
   * committed.
   */
  write<T>(work: () => T): Promise<T> {
    return new Promise<T>((done, failed) => {
      const queued = this.queued.push({ work, done: done as (value: unknown) => void, failed });
      if (queued === 1) setImmediate(() => this.commitQueued());
    });
  }

  private commitQueued(): void {
    const batch = this.queued.splice(0);
    // Optimistically without a savepoint per write (two statements each); when one throws,
    // the whole batch is rolled back and run again with them, so that it fails alone. A write
    // is a function of the database, so running it again after a rollback is safe.
    let results = this.runBatch(batch, false);
    if (batch.length > 1 && results?.some((result) => !result.ok)) {
      results = this.runBatch(batch, true);
    }
    if (results === undefined) return;
    this.afterWrites(batch.length);
    batch.forEach((item, index) => {
      const result = results[index]!;
      if (result.ok) item.done(result.value);
      else item.failed(result.error);
    });
  }

  /**
   * Runs the batch in one transaction. Without savepoints, stops at the first write that throws
   * and rolls everything back. Undefined when the transaction itself failed (every write is
   * told so).
   */
  private runBatch(
    batch: typeof this.queued,
    isolated: boolean,
  ): ({ ok: true; value: unknown } | { ok: false; error: unknown })[] | undefined {
    const results: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = [];
    try {
      this.begin.run();
    } catch (error) {
      for (const item of batch) item.failed(error);
      return undefined;
    }
    for (const item of batch) {
      if (isolated) this.savepoint.run();
      try {
        results.push({ ok: true, value: item.work() });
        if (isolated) this.release.run();
      } catch (error) {
        results.push({ ok: false, error });
        if (!isolated) {
          this.db.exec('ROLLBACK');
          return results;
        }
        this.rollbackToSavepoint.run();
        this.release.run();
      }
    }
    try {
      this.commit.run();
    } catch (error) {
      if (this.db.isTransaction) this.db.exec('ROLLBACK');
      for (const item of batch) item.failed(error);
      return undefined;
    }
    return results;
  }

  /**
   * Performs `action` once per Idempotency-Key; run it with write(), so the key is looked up
   * and the action run and its response stored in one write transaction, and two processes
   * sending one key at once create one pet. A key seen within its lifetime with the same digest
   * replays the stored response; with another digest it is refused. Only a response the action
   * returns is stored: one that throws (a bad request, no ids left) stores nothing.
   */
  idempotent(request: IdempotentRequest, action: () => StoredResponse): IdempotentOutcome {
    const since = request.now - IDEMPOTENCY_KEY_LIFETIME_MS;
    // Expired keys are deleted at most once a second, not by every write.
    if (request.now - this.lastPruned >= PRUNE_EVERY_MS || request.now < this.lastPruned) {
      this.forgetOldKeys.run({ before: since });
      this.lastPruned = request.now;
    }
    // all(), not get(): statements run to completion inside the shared transaction.
    const [stored] = this.selectKey.all({ scope: request.scope, key: request.key, since }) as {
      request_digest: string;
      status: number;
      body: string;
    }[];
    if (stored === undefined) {
      const response = action();
      this.insertKey.run({ ...request, status: response.status, body: response.body });
      return { kind: 'performed', response };
    }
    if (stored.request_digest === request.digest) {
      return { kind: 'replayed', response: { status: stored.status, body: stored.body } };
    }
    return { kind: 'key-reused', response: undefined };
  }

  /** Removes every pet, message and stored key; returns how many pets there were. */
  reset(): number {
    const { count } = this.db.prepare('SELECT count(*) AS count FROM pets').get() as {
      count: number;
    };
    this.db.exec('DELETE FROM pets; DELETE FROM messages; DELETE FROM idempotency_keys;');
    return count;
  }

  close(): void {
    this.db.close();
  }
}
