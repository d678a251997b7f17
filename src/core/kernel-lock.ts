import { readFileSync, readlinkSync, renameSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { parseJson, stringifyJson } from './json.js';
import { randomHex } from './random-hex.js';
import { loadSqlite, sqliteFailure } from './sqlite.js';

/**
 * An exclusive lock the operating system holds for its owner: an fcntl lock on a lock file,
 * taken through node:sqlite (an exclusive transaction left open). The kernel releases it the
 * moment its owner ends, however it ends (kill -9 too), so no one ever judges whether an owner
 * still runs: no pid, hostname or start time decides it, and a run in another pid namespace
 * (a container with the host's network) or under a reused pid cannot take a live lock.
 *
 * The lock file is an empty SQLite file and stays in place: removing it would let a taker
 * lock a file no longer at the path. Only SQLite ever opens it in this process: closing any
 * other descriptor of it would drop the lock (fcntl locks belong to the process, not the
 * descriptor). Who holds it is written beside it (PATH.owner), for messages only.
 */

export interface LockOwner {
  pid: number;
  host: string;
  /** When it took the lock (ISO 8601). */
  since?: string | undefined;
  /** Its pid is of another pid namespace (a container) than this process's: not ours to name. */
  otherNamespace?: boolean | undefined;
}

/** This process's pid namespace (Linux), so an owner's pid is named only where it means one. */
function pidNamespace(): string | undefined {
  try {
    return readlinkSync('/proc/self/ns/pid');
  } catch {
    return undefined;
  }
}

export type LockAttempt =
  | {
      taken: true;
      release: () => Promise<void>;
      /**
       * Writes who holds the lock beside it. tryLock does so itself unless asked not to: a
       * caller taking several locks writes only once it holds them all, so a run that lost
       * the race never names itself as the holder.
       */
      announce: () => void;
    }
  | { taken: false; owner: LockOwner | undefined };

/** The lock file cannot be used: not a lock file, or not writable by this user. */
export class LockFileError extends Error {
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`cannot lock ${path}: ${reason}`);
  }
}

function lockFileError(path: string, error: unknown): LockFileError {
  if (sqliteFailure(error) === 'damaged') {
    return new LockFileError(path, 'it is not a lock file petstore made (an earlier version?)');
  }
  const message = error instanceof Error ? error.message : String(error);
  return new LockFileError(path, message);
}

const ownerFile = (path: string) => `${path}.owner`;

function writeOwner(path: string): void {
  const owner = {
    pid: process.pid,
    host: hostname(),
    since: new Date().toISOString(),
    namespace: pidNamespace(),
  };
  const scratch = `${ownerFile(path)}.${randomHex(6)}`;
  try {
    writeFileSync(scratch, stringifyJson(owner), { mode: 0o644 });
    renameSync(scratch, ownerFile(path));
  } catch {
    // Only messages read it: a lock without it is still held.
  }
}

/** Who holds the lock, as it wrote beside it; undefined when that cannot be read. */
function readOwner(path: string): LockOwner | undefined {
  try {
    const value = parseJson(readFileSync(ownerFile(path), 'utf8')) as {
      pid?: unknown;
      host?: unknown;
      since?: unknown;
      namespace?: unknown;
    } | null;
    if (typeof value?.pid !== 'number' || typeof value.host !== 'string') return undefined;
    const mine = pidNamespace();
    return {
      pid: value.pid,
      host: value.host,
      since: typeof value.since === 'string' ? value.since : undefined,
      otherNamespace:
        typeof value.namespace === 'string' && mine !== undefined && value.namespace !== mine,
    };
  } catch {
    return undefined;
  }
}

/** Takes the lock at `path` if no one holds it; else says who does. */
export function tryLock(path: string, options: { announce?: boolean } = {}): Promise<LockAttempt> {
  return new Promise((resolve) => {
    const attempt = tryLockNow(path);
    if (attempt.taken && options.announce !== false) attempt.announce();
    resolve(attempt);
  });
}

function tryLockNow(path: string): LockAttempt {
  const { DatabaseSync } = loadSqlite();
  let db;
  try {
    db = new DatabaseSync(path, { timeout: 0 });
  } catch (error) {
    throw lockFileError(path, error);
  }
  try {
    // Held from BEGIN until the connection closes; no journal file beside it.
    db.exec('PRAGMA locking_mode = EXCLUSIVE; PRAGMA journal_mode = MEMORY; BEGIN EXCLUSIVE');
  } catch (error) {
    db.close();
    if (sqliteFailure(error) === 'transient') {
      return { taken: false, owner: readOwner(path) };
    }
    throw lockFileError(path, error);
  }
  const held = db;
  let released = false;
  return {
    taken: true,
    announce: () => writeOwner(path),
    release: () => {
      if (!released) {
        released = true;
        held.close();
      }
      return Promise.resolve();
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** As tryLock, waiting up to `waitMs` for a lock that is held to be released. */
export async function lockWithin(path: string, waitMs: number): Promise<LockAttempt> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const result = await tryLock(path);
    if (result.taken || Date.now() >= deadline) return result;
    await sleep(20 + Math.random() * 20);
  }
}
