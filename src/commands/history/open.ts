import { existsSync } from 'node:fs';
import { historyFile } from '../../config/paths.js';
import type { Env } from '../../core/io.js';
import { HistoryStore } from '../../history/store.js';
import type { HistoryDeps } from '../../operations/history/history.js';

/** The history of this user's writes, for reading: none yet when nothing was ever recorded. */
export function historyDeps(env: Env): HistoryDeps {
  const path = historyFile(env);
  return {
    open: () => (existsSync(path) ? HistoryStore.open(path) : undefined),
    now: Date.now(),
  };
}
