import { open, stat, unlink } from 'node:fs/promises';
import { ConfigError } from '../core/errors.js';

const RETRY_MS = 25;
const GIVE_UP_MS = 10_000;
/** A lock older than this was left by a process that died; it is broken. */
const STALE_MS = 30_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `action` while holding an exclusive lock file next to the config file, so that
 * read-modify-write cycles of concurrent processes never lose each other's updates.
 */
export async function withFileLock<T>(lockPath: string, action: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + GIVE_UP_MS;
  for (;;) {
    try {
      const handle = await open(lockPath, 'wx', 0o600);
      await handle.writeFile(String(process.pid));
      await handle.close();
      break;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST') {
        throw new ConfigError(`cannot lock ${lockPath}: ${code ?? String(error)}`, lockPath, {
          hint: 'Check that the config folder exists and is writable.',
          cause: error,
        });
      }
      const age = await stat(lockPath).then(
        (info) => Date.now() - info.mtimeMs,
        () => 0,
      );
      if (age > STALE_MS) {
        await unlink(lockPath).catch(() => undefined);
        continue;
      }
      if (Date.now() > deadline) {
        throw new ConfigError(`the config is locked by another petstore (${lockPath})`, lockPath, {
          hint: 'Wait for it to finish; if none is running, delete the lock file.',
        });
      }
      await sleep(RETRY_MS + Math.random() * RETRY_MS);
    }
  }
  try {
    return await action();
  } finally {
    await unlink(lockPath).catch(() => undefined);
  }
}
