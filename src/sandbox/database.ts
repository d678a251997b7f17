import { statSync } from 'node:fs';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { Int64 } from '../core/int64.js';
import { randomHex } from '../core/random-hex.js';
import {
  IdempotencyKeys,
  type IdempotentOutcome,
  type IdempotentRequest,
  type StoredResponse,
} from './idempotency-keys.js';
import { INT64_MAX, INT64_MIN, openSandboxFile } from './schema.js';
import { WriteBatcher } from './write-batch.js';

export {
  IDEMPOTENCY_KEY_LIFETIME_MS,
  type IdempotentOutcome,
  type IdempotentRequest,
  type StoredResponse,
} from './idempotency-keys.js';

export interface StoredMessage {
  id: string;
  message: string;
  status: string;
  createdAt: string;
}

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
  /** How long a write waits for another process's lock before 503 database_busy (10 s). */
  busyTimeoutMs?: number | undefined;
}

/**
 * The database file was deleted or replaced while the sandbox served it: writes would go to a
 * file no one can open again, and be lost. They are refused until the sandbox is restarted.
 */
export class DatabaseGoneError extends Error {
  constructor(
    path: string,
    what: 'database file' | 'write-ahead log' = 'database file',
    how = 'was deleted or replaced',
  ) {
    super(`the sandbox's ${what} ${path} ${how} while it served it`);
  }
}

type FileIdentity = { dev: number; ino: number };

const sameFile = (a: FileIdentity | undefined, b: FileIdentity | undefined) =>
  a?.dev === b?.dev && a?.ino === b?.ino;

/** Every int64 id has been given: no pet can be added until the sandbox is reset. */
export class IdsExhaustedError extends Error {
  constructor() {
    super(`every pet id up to ${INT64_MAX} has been given`);
  }
}

/**
 * The sandbox's storage: SQLite in a file (WAL, busy timeout, so several processes can share
 * it without losing a write) or in memory. ids are int64, assigned here.
 */
export class SandboxDatabase {
  private readonly db: DatabaseSync;
  private readonly path: string;
  private readonly idStart: bigint;
  private writesSinceWalCheck = 0;
  /** The file opened (device and inode), to tell it from one put in its place. */
  private readonly file: FileIdentity | undefined;
  /** Its write-ahead log as last seen: where the commits not yet checkpointed live. */
  private wal: FileIdentity | undefined;
  private checkedThisTurn = false;
  /** Why writes are refused, once the database file or its log is gone. */
  private gone: DatabaseGoneError | undefined;
  private readonly writes: WriteBatcher;
  private readonly keys: IdempotencyKeys;
  private readonly insertPet: StatementSync;
  private readonly selectPets: StatementSync;
  private readonly selectPetsByStatus: StatementSync;
  private readonly selectPetsAfter: StatementSync;
  private readonly selectPetsByStatusAfter: StatementSync;
  private readonly selectPet: StatementSync;
  private readonly insertMessage: StatementSync;

  constructor(
    /** A SQLite file, or ':memory:'. */
    path: string,
    options: DatabaseOptions = {},
  ) {
    this.path = path;
    this.idStart = options.idStart ?? 1n;
    this.db = openSandboxFile(path, options.durable === true, options.busyTimeoutMs);
    this.file = path === ':memory:' ? undefined : statSync(path);
    if (this.file) this.wal = statSync(`${path}-wal`, { throwIfNoEntry: false });
    this.writes = new WriteBatcher(this.db, (count) => this.afterWrites(count));
    this.keys = new IdempotencyKeys(this.db);
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
   * event loop (WriteBatcher): one that throws changes nothing and fails alone. Resolves once
   * the transaction is committed.
   */
  write<T>(work: () => T): Promise<T> {
    // Once per turn of the event loop: the writes of one turn share one transaction.
    if (this.file && !this.checkedThisTurn) {
      this.checkedThisTurn = true;
      setImmediate(() => (this.checkedThisTurn = false));
      this.gone ??= this.lostFile();
    }
    if (this.gone) return Promise.reject(this.gone);
    return this.writes.write(work);
  }

  /**
   * Whether the database file or its write-ahead log was deleted or replaced. SQLite goes on
   * writing to the files it has open, which no one can open again: commits would be lost at
   * the next crash. A log deleted still holds commits already acknowledged, so they are first
   * copied into the database file (a checkpoint reads the open log; a passive one, which never
   * waits for another process's lock), then writes are refused.
   *
   * Only stat(2), which opens no descriptor: SQLite's locks are POSIX fcntl locks, which the
   * kernel drops for the whole process when it closes any descriptor of the file, so opening
   * and closing the database, its -wal or its -shm here would let another process reset the
   * shared index under this one (SIGBUS). The log's content is SQLite's to check.
   */
  private lostFile(): DatabaseGoneError | undefined {
    const now = statSync(this.path, { throwIfNoEntry: false });
    if (!sameFile(now, this.file)) return new DatabaseGoneError(this.path);
    const wal = statSync(`${this.path}-wal`, { throwIfNoEntry: false });
    if (this.wal === undefined || sameFile(wal, this.wal)) {
      this.wal = wal;
      return undefined;
    }
    try {
      this.db.exec('PRAGMA wal_checkpoint(PASSIVE)');
    } catch {
      // Nothing more can be saved: the refusal below still stops further loss.
    }
    return new DatabaseGoneError(`${this.path}-wal`, 'write-ahead log');
  }

  /** IdempotencyKeys.idempotent, in this database (run it with write()). */
  idempotent(request: IdempotentRequest, action: () => StoredResponse): IdempotentOutcome {
    return this.keys.idempotent(request, action);
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
