import { fileURLToPath } from 'node:url';
import { cachedLoader } from './core/cached-script.js';

// For the benchmark's undici floor (bench/one-get-undici.mjs): loaded as the program is.
export { cachedLoader };

/**
 * The exports of dist/main-<hash>.cjs, the program's files run with their code caches
 * (core/cached-script.ts). bin/petstore.js gives `requireOther`, Node's require from there,
 * which finds the one package the build leaves out (the OS keyring's native binding).
 */
export function loadProgram(requireOther: (id: string) => unknown): typeof import('./main.js') {
  const main = fileURLToPath(new URL(`./${__PETSTORE_MAIN__}`, import.meta.url));
  // Node applies source maps (--enable-source-maps) to the files its own loader runs only.
  if (process.sourceMapsEnabled) return requireOther(main) as typeof import('./main.js');
  return cachedLoader({ requireOther, runKind: runKindOf(process.argv.slice(2)) })(
    main,
  ) as typeof import('./main.js');
}

/**
 * The kind of run a command line is, for the code caches (see LoadOptions.runKind): its flags
 * and its first three lowercase words, in order, as a nonzero 32-bit hash (FNV-1a). `pets list
 * --json`, `pets list -o table` and `pets list --help` run different code; `pets get 7` and
 * `pets get 8` do not. A flag's value may count as a word: that only makes one more kind.
 */
export function runKindOf(argv: readonly string[]): number {
  let words = 0;
  const kind: string[] = [];
  for (const arg of argv) {
    if (/^--?[a-zA-Z]/.test(arg)) kind.push(arg.split('=', 1)[0]!);
    else if (/^[a-z][a-z-]*$/.test(arg) && words++ < 3) kind.push(arg);
  }
  let hash = 0x811c9dc5;
  for (const char of kind.join(' ')) {
    hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193) >>> 0;
  }
  return hash || 1;
}
