import { realpath, stat } from 'node:fs/promises';
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
  throw new UsageError(`the journal ${journal} is in use by ${owner}`, {
    hint: `Wait for it to end, then resume. If no such run exists, delete ${lockPath}.`,
  });
}

/**
 * The lock on the journal file itself, whatever name it is reached by (a hard link too): a
 * lock named after its device and inode, in a folder of the user's. Taken once the file
 * exists; beside the path lock, which also holds across machines sharing the folder.
 */
export async function lockJournalFile(journal: string, locksFolder: string): Promise<Unlock> {
  const { dev, ino } = await stat(journal);
  await makeFolder(locksFolder, 0o700);
  return take(
    join(locksFolder, `journal-${dev}-${ino}.lock`),
    journal,
    `Check that ${locksFolder} is writable.`,
  );
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
