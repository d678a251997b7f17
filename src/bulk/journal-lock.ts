import { stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { UsageError } from '../core/errors.js';
import { flockFile } from '../core/file-flock.js';
import { LockFileError, tryLock, type LockAttempt, type LockOwner } from '../core/kernel-lock.js';
import {
  besideLockBase,
  besideLockPath,
  fileLocks,
  newJournalLocks,
  obeyedInMachineFolder,
  type LockPlace,
} from './journal-lock-places.js';

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

function ownerText(owner: LockOwner | undefined): string {
  if (!owner) return 'another petstore run';
  const since = owner.since ? ` since ${owner.since}` : '';
  const where = owner.otherNamespace ? ' in another pid namespace' : '';
  return `another petstore run (pid ${owner.pid}${where} on ${owner.host}${since})`;
}

/** How to end a run that is stuck: where it runs, by the pid it has there. */
function endStuck(owner: LockOwner | undefined, files: string[]): string {
  if (!owner) return `find it with: fuser -v ${files.join(' ')}`;
  if (owner.host !== hostname()) {
    return `end pid ${owner.pid} on ${owner.host} (the machine or container named so)`;
  }
  if (owner.otherNamespace) {
    return `end pid ${owner.pid} in the pid namespace it runs in (a container on this machine)`;
  }
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

/** Tries one lock; undefined when it is skipped. */
async function attemptLock(place: LockPlace): Promise<LockAttempt | undefined> {
  if (place.onFile) {
    const attempt = await flockFile(place.path);
    return attempt && (attempt.taken ? attempt : { taken: false, owner: undefined });
  }
  const attempt = await tryLock(place.path, {
    shared: place.shared !== undefined,
    announce: false,
  }).catch((error: unknown) => {
    // Another user's lock file this user cannot lock: their runs still take it.
    if (place.shared && error instanceof LockFileError) return undefined;
    throw error;
  });
  if (attempt?.taken === false && !(await obeyedInMachineFolder(place))) return undefined;
  return attempt;
}

type Refusal = { held: string[]; heldFiles: string[]; owner: LockOwner | undefined };

/** One try at every lock at `places`: all taken, or none kept and those held named. */
async function tryAll(journal: string, places: LockPlace[]): Promise<Unlock | Refusal> {
  const taken: Extract<LockAttempt, { taken: true }>[] = [];
  const refusal: Refusal = { held: [], heldFiles: [], owner: undefined };
  const releaseTaken = async () => {
    for (const lock of taken.splice(0).reverse()) await lock.release();
  };
  try {
    for (const place of places) {
      const attempt = await attemptLock(place);
      if (attempt === undefined) continue;
      if (attempt.taken) taken.push(attempt);
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
  if (refusal.held.length === 0) {
    // All held: only now does this run name itself their holder.
    for (const lock of taken) lock.announce();
    return releaseTaken;
  }
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

/** The lock on the journal file itself, once it exists: taken by a new run after it made it. */
export async function lockJournalFile(journal: string, locksFolder: string): Promise<Unlock> {
  return takeAll(journal, await fileLocks(journal, locksFolder));
}

/**
 * Takes the journal's locks: `REALPATH.lock` beside it (see besideLockBase) and, for a journal
 * that exists, the locks of its file (lockJournalFile). Refused: every lock held is named, with
 * its owner.
 */
export async function lockJournal(journal: string, locksFolder: string): Promise<Unlock> {
  const exists = await stat(journal).then(
    () => true,
    () => false,
  );
  // The file's own locks go through the path as given: it reaches the journal (see
  // besideLockBase), and the kernel names the file behind it the same from any path.
  const base = await besideLockBase(journal);
  const places: LockPlace[] = base === undefined ? [] : [{ path: besideLockPath(base) }];
  if (exists) places.push(...(await fileLocks(journal, locksFolder)));
  else if (base === undefined) places.push(...(await newJournalLocks(journal, locksFolder)));
  return takeAll(journal, places);
}
