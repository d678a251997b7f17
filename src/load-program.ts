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
 * The kind of run a command line is, for the code caches (see LoadOptions.runKind): the flags
 * it gives, in any order, and its first two words, as a nonzero 32-bit hash (FNV-1a). `pets
 * list --json` and `pets list --help` run different code; `pets get 7` and `pets get 8`, or
 * `--profile staging` and `--profile prod`, do not. A word just after a flag counts as the
 * flag's value, not as a word; a cache records 32 kinds, so values must not make new ones.
 */
export function runKindOf(argv: readonly string[]): number {
  const flags = new Set<string>();
  const words: string[] = [];
  let afterFlag = false;
  for (const arg of argv) {
    if (arg === '--') break;
    if (/^--?[a-zA-Z]/.test(arg)) {
      // A short flag by its first letter: what follows it may be its value (-ojson).
      const flag = arg.startsWith('--') ? arg.split('=', 1)[0]! : arg.slice(0, 2);
      flags.add(flag);
      afterFlag = flag === arg;
      continue;
    }
    if (!afterFlag && words.length < 2 && /^[a-z][a-z-]*$/.test(arg)) words.push(arg);
    afterFlag = false;
  }
  let hash = 0x811c9dc5;
  for (const char of [...words, '|', ...[...flags].sort()].join(' ')) {
    hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193) >>> 0;
  }
  return hash || 1;
}
