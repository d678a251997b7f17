import { fileURLToPath } from 'node:url';
import { cachedLoader } from './core/cached-script.js';

/**
 * The exports of dist/main-<hash>.cjs, the program's files run with their code caches
 * (core/cached-script.ts). bin/petstore.js gives `requireOther`, which finds the one package
 * the build leaves out (the OS keyring's native binding).
 */
export function loadProgram(requireOther: (id: string) => unknown): typeof import('./main.js') {
  const load = cachedLoader({ requireOther });
  const main = new URL(`./${__PETSTORE_MAIN__}`, import.meta.url);
  return load(fileURLToPath(main)) as typeof import('./main.js');
}
