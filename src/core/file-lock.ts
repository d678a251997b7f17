import { readFileSync } from 'node:fs';
import { link, open, stat, unlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { parseJson, stringifyJson } from './json.js';
import { randomHex } from './random-hex.js';
import { readRegularFile } from './read-file.js';

/**
 * An exclusive lock file, for the config and for bulk journals alike. One rule for staleness:
 * a lock is stale when its owner, on this machine, no longer runs (its pid is gone, or now
 * belongs to a process started later). A lock from another machine is never judged stale.
 *
 * Taking a lock is atomic under any number of simultaneous takers, including the takeover of a
 * stale one: nothing here checks a lock and then acts on the path. A new lock is a file written
 * in full and then hard-linked into place (link fails if the name exists). A stale lock is
 * removed only by the one taker that holds the claim on that very lock, itself a lock named
 * after the stale one's identity, so two takers can never both remove (one of them another's
 * fresh lock) and both take it.
 */

export interface LockOwner {
  pid: number;
  host: string;
}

export type LockAttempt =
  { taken: true; release: () => Promise<void> } | { taken: false; owner: LockOwner | undefined };

interface OwnerRecord extends LockOwner {
  /** Names this lock among all the locks ever taken at its path. */
  token: string;
  /** When the owner started (Linux: clock ticks since boot), so a reused pid is told apart. */
  started?: number | undefined;
}

/** What is found at a lock's path. */
type Found =
  | { kind: 'gone' }
  | { kind: 'held'; owner: LockOwner | undefined; identity: string; stale: boolean };

/** A claim whose holder died is itself taken over; deeper chains mean something is wrong. */
const MAX_CLAIM_DEPTH = 4;
/**
 * How long a taker waits for another to finish taking over a stale lock (it takes
 * milliseconds, but under load processes wait their turn for the processor).
 */
const TAKEOVER_PATIENCE_MS = 15_000;
/** An unreadable lock this young may be one being written where links are not supported. */
const UNREADABLE_GRACE_MS = 5_000;
/** A lock holds one small JSON object. */
const LOCK_MAX_BYTES = 4096;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** This process's start time, field 22 of /proc/PID/stat; undefined where there is no /proc. */
function processStart(pid: number | 'self'): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const started = Number(fields[19]);
    return Number.isSafeInteger(started) ? started : undefined;
  } catch {
    return undefined;
  }
}

function runs(owner: OwnerRecord): boolean {
  if (owner.host !== hostname()) return true;
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
  }
  if (owner.started === undefined) return true;
  const started = processStart(owner.pid);
  return started === undefined || started === owner.started;
}

/** Linux's largest pid (2^22); 0 and negative numbers name process groups, not an owner. */
const MAX_PID = 2 ** 22;

function isPid(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 1 && value <= MAX_PID;
}

function parseOwner(text: string): OwnerRecord | undefined {
  // A bare pid: a config lock written by an earlier petstore on this machine.
  if (/^\d+$/.test(text.trim())) {
    const pid = Number(text);
    return isPid(pid) ? { pid, host: hostname(), token: '' } : undefined;
  }
  try {
    const value = parseJson(text) as Partial<OwnerRecord> | null;
    if (typeof value !== 'object' || value === null) return undefined;
    const { pid, host, token, started } = value;
    if (!isPid(pid) || typeof host !== 'string' || host === '') return undefined;
    return {
      pid,
      host,
      token: typeof token === 'string' ? token : '',
      started: typeof started === 'number' ? started : undefined,
    };
  } catch {
    return undefined;
  }
}

/** The token a lock file names, whether or not it names a valid owner. */
function tokenOf(text: string): string {
  try {
    const { token } = (parseJson(text) ?? {}) as { token?: unknown };
    return typeof token === 'string' && /^[\w-]{1,64}$/.test(token) ? token : '';
  } catch {
    return '';
  }
}

/** Whether the text is a whole JSON value (not a lock cut short while written). */
function isWhole(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

async function inspect(path: string): Promise<Found> {
  let text: string;
  let info: { ino: number; mtimeMs: number };
  try {
    // Never a FIFO's endless wait: a lock that is no small regular file throws, naming it.
    [text, info] = [readRegularFile(path, LOCK_MAX_BYTES).toString('utf8'), await stat(path)];
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'gone' };
    throw error;
  }
  const owner = parseOwner(text);
  // The file's own identity: a token is unique; older locks have none, their inode and time are.
  const identity =
    tokenOf(text) || `i${info.ino.toString(36)}-${Math.round(info.mtimeMs).toString(36)}`;
  // No owner: a lock being written (where links are not supported) is empty or cut short for
  // a moment; a whole one that names no process (pid 0, -1, past the largest) was never ours.
  const stale = owner
    ? !runs(owner)
    : isWhole(text) || Date.now() - info.mtimeMs > UNREADABLE_GRACE_MS;
  return {
    kind: 'held',
    owner: owner && { pid: owner.pid, host: owner.host },
    identity,
    stale,
  };
}

/** Creates the lock file whole, or returns false when the name is taken. */
async function create(path: string, record: OwnerRecord): Promise<boolean> {
  const text = stringifyJson(record);
  const scratch = `${path}.${record.token}.new`;
  await writeFile(scratch, text, { flag: 'wx', mode: 0o600 });
  try {
    await link(scratch, path);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP') throw error;
    // No hard links here: an exclusive create, briefly empty (hence the grace for unreadable).
    try {
      const handle = await open(path, 'wx', 0o600);
      await handle.writeFile(text).finally(() => handle.close());
      return true;
    } catch (fallback) {
      if ((fallback as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw fallback;
    }
  } finally {
    await unlink(scratch).catch(() => undefined);
  }
}

function releaser(path: string, token: string): () => Promise<void> {
  let released: Promise<void> | undefined;
  // Once only, and only while it is ours: never remove a lock another run took since.
  return () =>
    (released ??= Promise.resolve()
      .then(() => readRegularFile(path, LOCK_MAX_BYTES).toString('utf8'))
      .then((text) => (parseOwner(text)?.token === token ? unlink(path) : undefined))
      .catch(() => undefined));
}

async function attempt(path: string, depth: number): Promise<LockAttempt> {
  const me: OwnerRecord = {
    pid: process.pid,
    host: hostname(),
    token: randomHex(12),
    started: processStart('self'),
  };
  let lastOwner: LockOwner | undefined;
  for (const deadline = Date.now() + TAKEOVER_PATIENCE_MS; Date.now() < deadline;) {
    if (await create(path, me)) return { taken: true, release: releaser(path, me.token) };
    const found = await inspect(path);
    if (found.kind === 'gone') continue;
    lastOwner = found.owner;
    if (!found.stale || depth >= MAX_CLAIM_DEPTH) return { taken: false, owner: found.owner };
    // Only the holder of the claim on this stale lock may remove it.
    const claim = await attempt(`${path}.takeover-${found.identity}`, depth + 1);
    if (!claim.taken) {
      // Another taker is taking it over now: it ends in a moment; then look again.
      await sleep(2 + Math.random() * 8);
      continue;
    }
    try {
      const now = await inspect(path);
      if (now.kind === 'held' && now.identity === found.identity) {
        await unlink(path).catch((error: unknown) => {
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        });
      }
    } finally {
      await claim.release();
    }
  }
  return { taken: false, owner: lastOwner };
}

/** Takes the lock at `path` if it is free or stale; else says who holds it. */
export function tryLock(path: string): Promise<LockAttempt> {
  return attempt(path, 0);
}

/** As tryLock, waiting up to `waitMs` for a lock that is held to be released. */
export async function lockWithin(path: string, waitMs: number): Promise<LockAttempt> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const result = await tryLock(path);
    if (result.taken || Date.now() >= deadline) return result;
    await sleep(20 + Math.random() * 20);
  }
}
