import { chmod, realpath, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { UsageError } from '../core/errors.js';
import { tryLock } from '../core/file-lock.js';
import { makeFolder } from '../core/make-folder.js';
import { FileShapeError } from '../core/read-file.js';

/** Releases what a lock took. */
export type Unlock = () => Promise<void>;

/** The journal's own path, links resolved: every name of it (`j`, `./j`, a symlink) is one. */
async function realJournalPath(journal: string): Promise<string> {
  try {
    return await realpath(journal);
  } catch {
    // Not made yet: its folder's real path, and its name.
    return join(await realpath(dirname(journal)).catch(() => dirname(journal)), basename(journal));
  }
}

/** The journal is locked by another run. */
export class JournalInUseError extends UsageError {}

async function take(lockPath: string, journal: string, hint: string): Promise<Unlock> {
  let attempt;
  try {
    attempt = await tryLock(lockPath);
  } catch (error) {
    const code =
      error instanceof FileShapeError
        ? error.message
        : ((error as NodeJS.ErrnoException).code ?? String(error));
    throw new UsageError(`cannot lock the journal ${journal}: ${code}`, { hint });
  }
  if (attempt.taken) return attempt.release;
  const owner = attempt.owner
    ? `another petstore run (pid ${attempt.owner.pid} on ${attempt.owner.host})`
    : `another petstore run (${lockPath} names no owner petstore can read)`;
  throw new JournalInUseError(`the journal ${journal} is in use by ${owner}`, {
    hint: `Wait for it to end, then resume. If no such run exists, delete ${lockPath}.`,
  });
}

/**
 * Where every run on this machine, whoever runs it and whatever its HOME or XDG_DATA_HOME,
 * finds the same lock for a journal file: a folder anyone may add to (mode 1777, as /tmp).
 */
export const MACHINE_LOCKS =
  process.platform === 'win32' ? join(tmpdir(), 'petstore-locks') : '/tmp/petstore-locks';

/** The machine's locks folder, made open to every user; undefined if it cannot be. */
async function machineLocks(): Promise<string | undefined> {
  try {
    await makeFolder(MACHINE_LOCKS, 0o1777);
    const { mode, uid } = await stat(MACHINE_LOCKS);
    // Made now by this user (the umask took bits away): opened to all, sticky as /tmp is.
    if (uid === process.getuid?.() && (mode & 0o1777) !== 0o1777) {
      await chmod(MACHINE_LOCKS, 0o1777);
    }
    return MACHINE_LOCKS;
  } catch {
    return undefined;
  }
}

/**
 * The lock on the journal file itself, whatever name it is reached by (a hard link too): a
 * lock named after its device and inode, in the user's data folder and in the machine's
 * (MACHINE_LOCKS), so runs with different data folders (another HOME, a CI job beside a
 * person) share it too. Taken once the file exists; beside the path lock, which also holds
 * across machines sharing the folder. A machine folder that cannot be used is skipped.
 */
export async function lockJournalFile(journal: string, locksFolder: string): Promise<Unlock> {
  const { dev, ino } = await stat(journal);
  const name = `journal-${dev}-${ino}.lock`;
  await makeFolder(locksFolder, 0o700);
  const own = await take(
    join(locksFolder, name),
    journal,
    `Check that ${locksFolder} is writable.`,
  );
  const machine = await machineLocks();
  if (machine === undefined) return own;
  try {
    const shared = await take(join(machine, name), journal, `Check that ${machine} is writable.`);
    return async () => {
      await shared();
      await own();
    };
  } catch (error) {
    // In use by another run: refused. Not writable (another user's stale lock): skipped.
    if (error instanceof JournalInUseError) {
      await own();
      throw error;
    }
    return own;
  }
}

/**
 * Takes the journal's locks, so two runs never send the same journal's records at once (each
 * would send the records the other has not finished): `REALPATH.lock` beside it, and, for a
 * journal that exists, the lock on its file (lockJournalFile). A lock left by a run that was
 * killed is taken over, by exactly one of any number of runs that try at once.
 */
export async function lockJournal(journal: string, locksFolder: string): Promise<Unlock> {
  const real = await realJournalPath(journal);
  const beside = await take(
    `${real}.lock`,
    journal,
    `Petstore locks a journal beside it: its folder (${dirname(real)}) must be writable.`,
  );
  const exists = await stat(real).then(
    () => true,
    () => false,
  );
  if (!exists) return beside;
  try {
    const file = await lockJournalFile(real, locksFolder);
    return async () => {
      await file();
      await beside();
    };
  } catch (error) {
    await beside();
    throw error;
  }
}
