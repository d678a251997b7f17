import { ConfigError } from '../core/errors.js';
import { LockFileError, lockWithin } from '../core/kernel-lock.js';

/** How long a config change waits for another petstore's change to finish. */
const WAIT_MS = 10_000;

/**
 * Runs `action` while holding an exclusive lock next to the config file, so that
 * read-modify-write cycles of concurrent processes never lose each other's updates. The lock is
 * the kernel's, as for bulk journals: it goes with its owner, however that ends.
 */
export async function withFileLock<T>(lockPath: string, action: () => Promise<T>): Promise<T> {
  let attempt;
  try {
    attempt = await lockWithin(lockPath, WAIT_MS);
  } catch (error) {
    const code =
      error instanceof LockFileError
        ? error.reason
        : ((error as NodeJS.ErrnoException).code ?? String(error));
    throw new ConfigError(`cannot lock ${lockPath}: ${code}`, lockPath, {
      hint: 'Check that the config folder exists and is writable.',
      cause: error,
    });
  }
  if (!attempt.taken) {
    const owner = attempt.owner ? ` (pid ${attempt.owner.pid} on ${attempt.owner.host})` : '';
    throw new ConfigError(
      `the config is locked by another petstore${owner}: ${lockPath}`,
      lockPath,
      {
        hint: 'Wait for it to finish: the lock goes the moment it ends, however it ends; if it is stuck, end that process.',
      },
    );
  }
  try {
    return await action();
  } finally {
    await attempt.release();
  }
}
