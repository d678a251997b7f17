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
  return cachedLoader({ requireOther })(main) as typeof import('./main.js');
}
