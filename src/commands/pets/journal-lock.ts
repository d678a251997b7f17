import { hostname } from 'node:os';
import { readFile, unlink, writeFile } from 'node:fs/promises';
import { UsageError } from '../../core/errors.js';
import { parseJson, stringifyJson } from '../../core/json.js';

interface LockOwner {
  pid: number;
  host: string;
}

/** Whether the process that wrote the lock still runs (on this machine; else assume it does). */
function ownerAlive(owner: LockOwner): boolean {
  if (owner.host !== hostname()) return true;
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function readOwner(path: string): Promise<LockOwner | undefined> {
  try {
    const owner = parseJson(await readFile(path, 'utf8')) as Partial<LockOwner>;
    return typeof owner.pid === 'number' && typeof owner.host === 'string'
      ? { pid: owner.pid, host: owner.host }
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Takes `JOURNAL.lock`, so two runs never send the same journal's records at once (each would
 * send the records the other has not finished). A lock left by a run that was killed (its
 * process is gone) is taken over. Returns the function that releases it (once, however often it is called).
 */
export async function lockJournal(journal: string): Promise<() => Promise<void>> {
  const path = `${journal}.lock`;
  const me = stringifyJson({ pid: process.pid, host: hostname() });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await writeFile(path, me, { flag: 'wx', mode: 0o600 });
      // Once only: a second call must not remove a lock another run took since.
      let released: Promise<void> | undefined;
      return () => (released ??= unlink(path).catch(() => undefined));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST') {
        throw new UsageError(`cannot lock the journal ${journal}: ${code ?? String(error)}`, {
          hint: 'Choose a writable place with --journal FILE.',
        });
      }
      const owner = await readOwner(path);
      if (owner && ownerAlive(owner)) {
        throw new UsageError(
          `the journal ${journal} is in use by another petstore run (pid ${owner.pid} on ${owner.host})`,
          {
            hint: `Wait for it to end, then resume. If no such run exists, delete ${path}.`,
          },
        );
      }
      // Left by a run that no longer exists (or unreadable, as a crash mid-write leaves it).
      await unlink(path).catch(() => undefined);
    }
  }
  throw new UsageError(`cannot lock the journal ${journal}: another run took it meanwhile`, {
    hint: 'Wait for that run to end, then resume.',
  });
}
