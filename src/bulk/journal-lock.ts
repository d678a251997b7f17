import { UsageError } from '../core/errors.js';
import { tryLock } from '../core/file-lock.js';
import { FileShapeError } from '../core/read-file.js';

/**
 * Takes `JOURNAL.lock`, so two runs never send the same journal's records at once (each would
 * send the records the other has not finished). A lock left by a run that was killed is taken
 * over, by exactly one of any number of runs that try at once. Returns the release function.
 */
export async function lockJournal(journal: string): Promise<() => Promise<void>> {
  let attempt;
  try {
    attempt = await tryLock(`${journal}.lock`);
  } catch (error) {
    const code =
      error instanceof FileShapeError
        ? error.message
        : ((error as NodeJS.ErrnoException).code ?? String(error));
    throw new UsageError(`cannot lock the journal ${journal}: ${code}`, {
      hint: 'Choose a writable place with --journal FILE.',
    });
  }
  if (attempt.taken) return attempt.release;
  const owner = attempt.owner ? ` (pid ${attempt.owner.pid} on ${attempt.owner.host})` : '';
  throw new UsageError(`the journal ${journal} is in use by another petstore run${owner}`, {
    hint: `Wait for it to end, then resume. If no such run exists, delete ${journal}.lock.`,
  });
}
