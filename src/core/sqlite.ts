/** node:sqlite without Node 22's ExperimentalWarning on the user's terminal. */
export function loadSqlite(): typeof import('node:sqlite') {
  // The original is put back as it was, unbound, once the module is loaded.
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const emitWarning = process.emitWarning;
  process.emitWarning = function (warning: string | Error, ...rest: unknown[]) {
    if (String(warning).includes('SQLite')) return;
    Reflect.apply(emitWarning, process, [warning, ...rest]);
  };
  try {
    return process.getBuiltinModule('node:sqlite');
  } finally {
    process.emitWarning = emitWarning;
  }
}

/**
 * What a node:sqlite error means for the sandbox, by SQLite's result code (errcode; its low
 * byte is the primary code), never by its message.
 */
export type SqliteFailure = 'transient' | 'damaged' | 'other';

/** SQLITE_BUSY, SQLITE_LOCKED, SQLITE_PROTOCOL: another process holds or is changing a lock. */
const TRANSIENT = new Set([5, 6, 15]);
/** SQLITE_CORRUPT, SQLITE_NOTADB: the file itself is not a sound database. */
const DAMAGED = new Set([11, 26]);

export function sqliteFailure(error: unknown): SqliteFailure {
  const { errcode } = (error ?? {}) as { errcode?: unknown };
  if (typeof errcode !== 'number') return 'other';
  const primary = errcode & 0xff;
  if (TRANSIENT.has(primary)) return 'transient';
  if (DAMAGED.has(primary)) return 'damaged';
  return 'other';
}

/**
 * Runs `step` again while it fails for a transient reason, pausing 10-50 ms between tries, for
 * at most `budgetMs` in all; then throws the last error. SQLite's busy timeout waits on
 * SQLITE_BUSY only: a lock refused at once (switching a new file to WAL) or SQLITE_PROTOCOL
 * returns without waiting.
 */
export function retryTransient<T>(step: () => T, budgetMs: number): T {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  const deadline = Date.now() + budgetMs;
  for (;;) {
    try {
      return step();
    } catch (error) {
      if (sqliteFailure(error) !== 'transient' || Date.now() >= deadline) throw error;
      Atomics.wait(pause, 0, 0, 10 + Math.random() * 40);
    }
  }
}
