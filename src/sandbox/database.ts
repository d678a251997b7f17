import { randomBytes } from 'node:crypto';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { toInt64, type Int64 } from '../core/int64.js';

export interface StoredPet {
  id: Int64;
  name: string;
  categoryId: Int64;
  status?: string;
}

export interface StoredMessage {
  id: string;
  message: string;
  status: string;
  createdAt: string;
}

interface PetRow {
  id: bigint;
  name: string;
  category_id: bigint;
  status: string | null;
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

/** Every int64 id has been given: no pet can be added until the sandbox is reset. */
export class IdsExhaustedError extends Error {
  constructor() {
    super(`every pet id up to ${INT64_MAX} has been given`);
  }
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS pets (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  category_id INTEGER NOT NULL,
  status TEXT
);
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
CREATE INDEX IF NOT EXISTS idempotency_keys_by_age ON idempotency_keys (created_at);`;

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

function toPet(row: PetRow): StoredPet {
  const pet: StoredPet = {
    id: toInt64(row.id),
    name: row.name,
    categoryId: toInt64(row.category_id),
  };
  if (row.status !== null) pet.status = row.status;
  return pet;
}

/**
 * The sandbox's storage: SQLite in a file (WAL, busy timeout, so several processes can share
 * it without losing a write) or in memory. ids are int64, assigned here.
 */
export class SandboxDatabase {
  private readonly db: DatabaseSync;
  private readonly insertPet: StatementSync;
  private readonly selectPets: StatementSync;
  private readonly selectPetsByStatus: StatementSync;
  private readonly selectPet: StatementSync;
  private readonly insertMessage: StatementSync;
  private readonly forgetOldKeys: StatementSync;
  private readonly selectKey: StatementSync;
  private readonly insertKey: StatementSync;

  constructor(
    /** A SQLite file, or ':memory:'. */
    path: string,
    private readonly idStart: bigint = 1n,
  ) {
    const { DatabaseSync } = loadSqlite();
    this.db = new DatabaseSync(path);
    this.db.exec('PRAGMA busy_timeout = 10000');
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
    // One statement computes and takes the next id, atomically under SQLite's write lock.
    this.insertPet = this.db.prepare(
      `INSERT INTO pets (id, name, category_id, status)
       SELECT max(coalesce((SELECT max(id) FROM pets) + 1, :start), :start), :name, :categoryId, :status
       WHERE coalesce((SELECT max(id) FROM pets), 0) < ${INT64_MAX}
       RETURNING id, name, category_id, status`,
    );
    this.selectPets = this.db.prepare(
      'SELECT id, name, category_id, status FROM pets ORDER BY id LIMIT :limit',
    );
    this.selectPetsByStatus = this.db.prepare(
      'SELECT id, name, category_id, status FROM pets WHERE status = :status ORDER BY id LIMIT :limit',
    );
    this.selectPet = this.db.prepare(
      'SELECT id, name, category_id, status FROM pets WHERE id = :id',
    );
    this.insertMessage = this.db.prepare(
      'INSERT INTO messages (id, message, status, created_at) VALUES (:id, :message, :status, :createdAt)',
    );
    this.forgetOldKeys = this.db.prepare('DELETE FROM idempotency_keys WHERE created_at < :before');
    this.selectKey = this.db.prepare(
      'SELECT request_digest, status, body FROM idempotency_keys WHERE scope = :scope AND key = :key',
    );
    this.insertKey = this.db.prepare(
      `INSERT INTO idempotency_keys (scope, key, request_digest, status, body, created_at)
       VALUES (:scope, :key, :digest, :status, :body, :now)`,
    );
    for (const statement of [
      this.insertPet,
      this.selectPets,
      this.selectPetsByStatus,
      this.selectPet,
    ]) {
      statement.setReadBigInts(true);
    }
  }

  listPets(limit: number, status: string | undefined): StoredPet[] {
    const rows = status
      ? this.selectPetsByStatus.all({ status, limit })
      : this.selectPets.all({ limit });
    return (rows as unknown as PetRow[]).map(toPet);
  }

  /** Throws IdsExhaustedError once the largest int64 id has been given. */
  createPet(name: string, categoryId: Int64, status: string | undefined): StoredPet {
    // all(), not get(): the statement runs to completion, so it holds no transaction open.
    const [row] = this.insertPet.all({
      start: this.idStart,
      name,
      categoryId: BigInt(categoryId),
      status: status ?? null,
    }) as unknown as (PetRow | undefined)[];
    if (!row) throw new IdsExhaustedError();
    return toPet(row);
  }

  getPet(id: bigint): StoredPet | undefined {
    const row = this.selectPet.get({ id }) as unknown as PetRow | undefined;
    return row ? toPet(row) : undefined;
  }

  addMessage(message: string): StoredMessage {
    const stored: StoredMessage = {
      id: `msg_${randomBytes(8).toString('hex')}`,
      message,
      status: 'queued',
      createdAt: new Date().toISOString(),
    };
    this.insertMessage.run({ ...stored });
    return stored;
  }

  /**
   * Performs `action` once per Idempotency-Key: the key is looked up, and the action run and its
   * response stored, in one write transaction, so two processes sending one key at once create
   * one pet. A key seen within its lifetime with the same digest replays the stored response;
   * with another digest it is refused. Only a response the action returns is stored: one that
   * throws (a bad request, no ids left) stores nothing and can be sent again.
   */
  idempotent(request: IdempotentRequest, action: () => StoredResponse): IdempotentOutcome {
    this.db.exec('BEGIN IMMEDIATE');
    try {
      this.forgetOldKeys.run({ before: request.now - IDEMPOTENCY_KEY_LIFETIME_MS });
      const stored = this.selectKey.get({ scope: request.scope, key: request.key }) as
        { request_digest: string; status: number; body: string } | undefined;
      let outcome: IdempotentOutcome;
      if (stored === undefined) {
        const response = action();
        this.insertKey.run({ ...request, status: response.status, body: response.body });
        outcome = { kind: 'performed', response };
      } else if (stored.request_digest === request.digest) {
        outcome = { kind: 'replayed', response: { status: stored.status, body: stored.body } };
      } else {
        outcome = { kind: 'key-reused', response: undefined };
      }
      this.db.exec('COMMIT');
      return outcome;
    } catch (error) {
      this.db.exec('ROLLBACK');
      throw error;
    }
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
