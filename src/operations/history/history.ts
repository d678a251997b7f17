import type { HistoryEntry } from '../../history/entry.js';
import type { HistoryFilter, HistoryStore } from '../../history/store.js';

/** The history as operations read it: the store, opened for this command and closed after. */
export interface HistoryDeps {
  open(): HistoryStore | undefined;
  now: number;
}

/** Entries newest first, as filtered; none when no write was ever recorded. */
export function listHistory(
  deps: HistoryDeps,
  request: Omit<HistoryFilter, 'since'> & { sinceMs?: number | undefined },
): HistoryEntry[] {
  const store = deps.open();
  if (store === undefined) return [];
  try {
    const since = request.sinceMs === undefined ? undefined : deps.now - request.sinceMs;
    return store.list({ ...request, since });
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

/** Removes entries older than `olderThanMs`; returns how many went. */
export function pruneHistory(deps: HistoryDeps, olderThanMs: number): number {
  const store = deps.open();
  if (store === undefined) return 0;
  try {
    return store.prune(deps.now - olderThanMs);
  } finally {
    store.close();
  }
}
