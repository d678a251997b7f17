import type { HistoryEntry } from '../../history/entry.js';
import type { HistoryFilter, HistoryStore } from '../../history/store.js';

/** The history as operations read it: the store, opened for this command and closed after. */
export interface HistoryDeps {
  open(): HistoryStore | undefined;
  now: number;
}

/**
 * Entries newest first, as filtered, read as they are taken (a listing of any length is held a
 * row at a time); none when no write was ever recorded. The store closes when they end.
 */
export function* listHistory(
  deps: HistoryDeps,
  request: Omit<HistoryFilter, 'since'> & { sinceMs?: number | undefined },
): Generator<HistoryEntry> {
  const store = deps.open();
  if (store === undefined) return;
  try {
    const since = request.sinceMs === undefined ? undefined : deps.now - request.sinceMs;
    yield* store.iterate({ ...request, since });
  } finally {
    store.close();
  }
}

export function historyEntry(deps: HistoryDeps, id: number): HistoryEntry | undefined {
  const store = deps.open();
  if (store === undefined) return undefined;
  try {
    return store.get(id);
  } finally {
    store.close();
  }
}

/**
 * Removes entries older than `olderThanMs`, and gives the space back to the disk; returns how
 * many went. A dry run removes nothing, and says how many would go.
 */
export function pruneHistory(deps: HistoryDeps, olderThanMs: number, dryRun = false): number {
  const store = deps.open();
  if (store === undefined) return 0;
  try {
    const before = deps.now - olderThanMs;
    return dryRun ? store.countOlder(before) : store.prune(before, undefined, true);
  } finally {
    store.close();
  }
}
