import { createHash } from 'node:crypto';
import { chmod, realpath, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { UsageError } from '../core/errors.js';
import { makeFolder } from '../core/make-folder.js';

/**
 * Where a journal's locks go (see journal-lock.ts for how they are taken): beside it, in the
 * user's locks folder, in the machine's, and on the file itself.
 */

/** The journal's own path, links resolved: every name of it (`j`, `./j`, a symlink) is one. */
async function realJournalPath(journal: string): Promise<string> {
  try {
    return await realpath(journal);
  } catch {
    // Not made yet: its folder's real path, and its name.
    return join(await realpath(dirname(journal)).catch(() => dirname(journal)), basename(journal));
  }
}

const sameFile = async (a: string, b: string): Promise<boolean> => {
  try {
    const [one, other] = await Promise.all([stat(a), stat(b)]);
    return one.dev === other.dev && one.ino === other.ino;
  } catch {
    return false;
  }
};

/**
 * Where the lock beside the journal goes: after its real path, so every name of it shares one;
 * undefined when the real path names another file from here. A path through another process's
 * root (`/proc/PID/root/...`, a container's) resolves to a path that means a different file
 * (or none) in this mount namespace, and SQLite, which holds the lock, resolves links itself.
 */
export async function besideLockBase(journal: string): Promise<string | undefined> {
  const real = await realJournalPath(journal);
  const exists = await stat(journal).then(
    () => true,
    () => false,
  );
  const same = exists
    ? await sameFile(journal, real)
    : await sameFile(dirname(journal), dirname(real));
  return same ? real : undefined;
}

/**
 * A lock to take: `shared`, in the machine's folder, is skipped when it cannot be used;
 * `onFile` is the lock on the journal file itself, skipped where it cannot be taken.
 */
export interface LockPlace {
  path: string;
  /** In the machine's folder: the uid of the journal's owner, whose lock files count there. */
  shared?: { journalOwner: number };
  onFile?: boolean;
}

/**
 * Whether a held lock in the machine's folder may refuse this run. Any user can make a lock
 * file there and hold it; one made by a user who neither owns the journal nor is root would
 * let anyone keep another user's journal locked forever, so it is not obeyed (the locks beside
 * the journal and on the file itself still stand between two runs).
 */
export async function obeyedInMachineFolder(place: LockPlace): Promise<boolean> {
  if (!place.shared) return true;
  const maker = await stat(place.path).then(
    (info) => info.uid,
    () => undefined,
  );
  return maker === undefined || maker === 0 || maker === place.shared.journalOwner;
}

/** The longest file name most file systems take (bytes). */
const NAME_MAX = 255;

/**
 * `BASE.lock`, or, when the journal's name is too long for that and its `.owner` beside it,
 * a short name made from it (`.petstore-HASH.lock`) in the same folder.
 */
export function besideLockPath(base: string): string {
  const name = basename(base);
  if (Buffer.byteLength(`${name}.lock.owner`) <= NAME_MAX) return `${base}.lock`;
  const digest = createHash('sha256').update(name).digest('hex').slice(0, 32);
  return join(dirname(base), `.petstore-${digest}.lock`);
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
export async function fileLocks(journal: string, locksFolder: string): Promise<LockPlace[]> {
  const { dev, ino } = await stat(journal);
  const name = await lockNameIn(locksFolder, `journal-${dev}-${ino}.lock`);
  const machine = await machineLocks();
  // Only a regular file: opening a FIFO or a device to lock it could block or do harm (such a
  // journal is refused when it is read).
  const info = await stat(journal);
  return [
    ...(info.isFile() ? [{ path: journal, onFile: true }] : []),
    { path: join(locksFolder, name) },
    ...(machine === undefined
      ? []
      : [{ path: join(machine, name), shared: { journalOwner: info.uid } }]),
  ];
}

/**
 * For a journal not made yet in a folder reached through another root, where no lock beside it
 * can be held: locks named after its folder (device and inode) and its name.
 */
export async function newJournalLocks(journal: string, locksFolder: string): Promise<LockPlace[]> {
  const folder = await stat(dirname(journal));
  const digest = createHash('sha256').update(basename(journal)).digest('hex').slice(0, 32);
  const name = await lockNameIn(
    locksFolder,
    `new-journal-${folder.dev}-${folder.ino}-${digest}.lock`,
  );
  const machine = await machineLocks();
  return [
    { path: join(locksFolder, name) },
    ...(machine === undefined
      ? []
      : [{ path: join(machine, name), shared: { journalOwner: folder.uid } }]),
  ];
}

/** `name`, once the user's locks folder is there to hold it. */
async function lockNameIn(locksFolder: string, name: string): Promise<string> {
  await makeFolder(locksFolder, 0o700).catch((error: unknown) => {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new UsageError(`cannot make the folder of petstore's locks ${locksFolder}: ${code}`, {
      hint: 'Check the permissions of its parent (XDG_STATE_HOME, HOME).',
    });
  });
  return name;
}
