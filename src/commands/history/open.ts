import { existsSync } from 'node:fs';
import { historyFile } from '../../config/paths.js';
import { UsageError } from '../../core/errors.js';
import { sqliteFailure } from '../../core/sqlite.js';
import type { Env } from '../../core/io.js';
import { HistoryStore } from '../../history/store.js';
import type { HistoryDeps } from '../../operations/history/history.js';

/** The history of this user's writes, for reading: none yet when nothing was ever recorded. */
export function historyDeps(env: Env): HistoryDeps {
  const path = historyFile(env);
  return {
    // A second for another program's lock: longer and the reader is left wondering.
    open: () => (existsSync(path) ? HistoryStore.open(path, 1000) : undefined),
    now: Date.now(),
  };
}

/**
 * Runs a read of the history, a file that cannot be read as one (damaged, another program's)
 * said as such, with what to do, not as a bug of petstore.
 */
export function readingHistory<T>(env: Env, read: (deps: HistoryDeps) => T): T {
  try {
    return read(historyDeps(env));
  } catch (error) {
    throw historyReadError(env, error);
  }
}

/**
 * Entries as a read of the history gives them (see readingHistory), one at a time: what goes
 * wrong reading them is said as readingHistory says it; what goes wrong with them after (the
 * output) is not the history's.
 */
export function* readingEntries<T>(env: Env, read: (deps: HistoryDeps) => Iterable<T>) {
  try {
    yield* read(historyDeps(env));
  } catch (error) {
    throw historyReadError(env, error);
  }
}

function historyReadError(env: Env, error: unknown): Error {
  if (error instanceof UsageError) return error;
  if (sqliteFailure(error) === 'transient') {
    return new UsageError(`the history ${historyFile(env)} is locked by another program`, {
      hint: 'Run the command again once it ends (sqlite3 on the file, a backup tool); the history is left as it is.',
    });
  }
  const reason = error instanceof Error ? error.message : String(error);
  return new UsageError(`the history ${historyFile(env)} cannot be read: ${reason}`, {
    hint: 'Move it away to start a new history (petstore records the next write in a new one); petstore left it untouched.',
  });
}
