import { chmod, realpath, stat } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { UsageError } from '../core/errors.js';
import { flockFile } from '../core/file-flock.js';
import { LockFileError, tryLock, type LockAttempt, type LockOwner } from '../core/kernel-lock.js';
import { makeFolder } from '../core/make-folder.js';

/**
 * The locks that keep two runs from sending one journal's records at once (each would send
 * the records the other has not finished): one beside the journal, named after its real path
 * (every name of it: `j`, `./j`, a symlink), and two named after the file itself (device and
 * inode: a hard link to it is the same journal), in the user's locks folder and the machine's;
 * and, where util-linux `flock` is, a lock on the journal file itself, which every name of it
 * meets whatever folders a run has (see core/file-flock.ts). All are kernel locks (see
 * core/kernel-lock.ts): a run that ends, however it ends, holds none.
 */

/** Releases what a lock took. */
export type Unlock = () => Promise<void>;

/** The journal is locked by another run. */
export class JournalInUseError extends UsageError {}

/** The journal's own path, links resolved: every name of it (`j`, `./j`, a symlink) is one. */
async function realJournalPath(journal: string): Promise<string> {
  try {
    return await realpath(journal);
  } catch {
    // Not made yet: its folder's real path, and its name.
    return join(await realpath(dirname(journal)).catch(() => dirname(journal)), basename(journal));
  }
}

function ownerText(owner: LockOwner | undefined): string {
  if (!owner) return 'another petstore run';
  const since = owner.since ? ` since ${owner.since}` : '';
  const where = owner.otherNamespace ? ' in another pid namespace (a container)' : '';
  return `another petstore run (pid ${owner.pid}${where} on ${owner.host}${since})`;
}

/** How to end a run that is stuck: where it runs, by the pid it has there. */
function endStuck(owner: LockOwner | undefined, files: string[]): string {
  if (!owner) return `find it with: fuser -v ${files.join(' ')}`;
  if (owner.host !== hostname()) return `end pid ${owner.pid} on ${owner.host}`;
  if (owner.otherNamespace) return `end pid ${owner.pid} in the container it runs in`;
  return `kill ${owner.pid}`;
}

function inUse(
  journal: string,
  held: string[],
  heldFiles: string[],
  owner: LockOwner | undefined,
): JournalInUseError {
  const stuck = endStuck(owner, heldFiles);
  return new JournalInUseError(
    `the journal ${journal} is in use by ${ownerText(owner)}: it holds ${held.join(' and ')}`,
    {
      hint: `Wait for it to end, then resume. The operating system releases its locks the moment it ends, however it ends, so there is nothing to clear; if it is stuck: ${stuck}.`,
    },
  );
}

/**
 * A lock to take: `shared`, in the machine's folder, is skipped when it cannot be used;
 * `onFile` is the lock on the journal file itself, skipped where it cannot be taken.
 */
interface LockPlace {
  path: string;
  shared?: boolean;
  onFile?: boolean;
}

/** Tries one lock; undefined when it is skipped. */
async function attemptLock(place: LockPlace): Promise<LockAttempt | undefined> {
  if (place.onFile) {
    const attempt = await flockFile(place.path);
    return attempt && (attempt.taken ? attempt : { taken: false, owner: undefined });
  }
  return tryLock(place.path, { shared: place.shared }).catch((error: unknown) => {
    // Another user's lock file this user cannot lock: their runs still take it.
    if (place.shared && error instanceof LockFileError) return undefined;
    throw error;
  });
}

type Refusal = { held: string[]; heldFiles: string[]; owner: LockOwner | undefined };

/** One try at every lock at `places`: all taken, or none kept and those held named. */
async function tryAll(journal: string, places: LockPlace[]): Promise<Unlock | Refusal> {
  const taken: Unlock[] = [];
  const refusal: Refusal = { held: [], heldFiles: [], owner: undefined };
  const releaseTaken = async () => {
    for (const release of taken.splice(0).reverse()) await release();
  };
  try {
    for (const place of places) {
      const attempt = await attemptLock(place);
      if (attempt === undefined) continue;
      if (attempt.taken) taken.push(attempt.release);
      else {
        refusal.held.push(place.onFile ? `a lock on ${place.path} itself` : place.path);
        refusal.heldFiles.push(place.path);
        refusal.owner ??= attempt.owner;
      }
    }
  } catch (error) {
    await releaseTaken();
    if (!(error instanceof LockFileError)) throw error;
    throw new UsageError(`cannot lock the journal ${journal}: ${error.reason} (${error.path})`, {
      hint: `Petstore locks a journal with files beside it and in its own folder: ${dirname(error.path)} must be writable.`,
    });
  }
  if (refusal.held.length === 0) return releaseTaken;
  await releaseTaken();
  return refusal;
}

/**
 * How long a run keeps trying before it says the journal is in use. Two runs started together
 * can each take a lock the other needs and both let go; and a run that has just ended may
 * hold the lock on the file itself a moment longer (its helper notices it ended). Trying
 * again after a random pause lets one of them through; a run that really holds the journal
 * still holds it when the time is up.
 */
const TRY_FOR_MS = 1500;
const pause = () => new Promise((done) => setTimeout(done, 20 + Math.random() * 80));

/**
 * Takes every lock at `places`, or none: when any is still held after TRY_FOR_MS, one error
 * names every lock held and who holds it.
 */
async function takeAll(journal: string, places: LockPlace[]): Promise<Unlock> {
  const until = Date.now() + TRY_FOR_MS;
  for (;;) {
    const result = await tryAll(journal, places);
    if (typeof result === 'function') return result;
    if (Date.now() >= until) throw inUse(journal, result.held, result.heldFiles, result.owner);
    await pause();
  }
}

/**
 * Where every run on this machine, whoever runs it and whatever its HOME or XDG folders,
 * finds the same lock for a journal file: a folder anyone may add to (mode 1777, as /tmp).
 */
export const MACHINE_LOCKS =
  process.platform === 'win32' ? join(tmpdir(), 'petstore-locks') : '/tmp/petstore-locks';

/** The machine's locks folder; undefined if it cannot be used. */
async function machineLocks(): Promise<string | undefined> {
  try {
    // Made now (the umask took bits away): opened to all, sticky as /tmp is. One that was
    // there is left as it is.
    if (await makeFolder(MACHINE_LOCKS, 0o1777)) await chmod(MACHINE_LOCKS, 0o1777);
    return MACHINE_LOCKS;
  } catch {
    return undefined;
  }
}

/**
 * The locks named after the journal file itself (device and inode): in the user's locks
 * folder, and in the machine's, so runs with other data folders (another HOME, a CI job
 * beside a person) reaching it by another name (a hard link) share them too.
 */
async function fileLocks(journal: string, locksFolder: string): Promise<LockPlace[]> {
  const name = await fileLockName(journal, locksFolder);
  const machine = await machineLocks();
  // Only a regular file: opening a FIFO or a device to lock it could block or do harm (such a
  // journal is refused when it is read).
  const regular = (await stat(journal)).isFile();
  return [
    ...(regular ? [{ path: journal, onFile: true }] : []),
    { path: join(locksFolder, name) },
    ...(machine === undefined ? [] : [{ path: join(machine, name), shared: true }]),
  ];
}

async function fileLockName(journal: string, locksFolder: string): Promise<string> {
  const { dev, ino } = await stat(journal);
  await makeFolder(locksFolder, 0o700).catch((error: unknown) => {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new UsageError(`cannot make the folder of petstore's locks ${locksFolder}: ${code}`, {
      hint: 'Check the permissions of its parent (XDG_STATE_HOME, HOME).',
    });
  });
  return `journal-${dev}-${ino}.lock`;
}

/** The lock on the journal file itself, once it exists: taken by a new run after it made it. */
export async function lockJournalFile(journal: string, locksFolder: string): Promise<Unlock> {
  return takeAll(journal, await fileLocks(journal, locksFolder));
}

/**
 * Takes the journal's locks: `REALPATH.lock` beside it and, for a journal that exists, the
 * lock on its file (lockJournalFile). Refused: every lock held is named, with its owner.
 */
export async function lockJournal(journal: string, locksFolder: string): Promise<Unlock> {
  const real = await realJournalPath(journal);
  const exists = await stat(real).then(
    () => true,
    () => false,
  );
  const places: LockPlace[] = [{ path: `${real}.lock` }];
  if (exists) places.push(...(await fileLocks(real, locksFolder)));
  return takeAll(journal, places);
}
