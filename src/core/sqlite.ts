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
