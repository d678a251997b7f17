// undici for the npm build: src/api/undici-parts.ts bundled on its own as a CommonJS file,
// dist/chunks/undici-<hash>.cjs, which the transport loads with V8's code cache taken after a
// run (src/core/cached-script.ts); the hash in its name changes with its content, which the
// cache is keyed by. An esbuild plugin points the transport's import of undici-parts.js at it.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { lazyUndici } from './lazy-undici.mjs';

const PARTS = resolve('src/api/undici-parts.ts');

/** Bundles undici's parts; returns the file's name and its text, not yet written. */
export async function bundleUndici() {
  const result = await build({
    entryPoints: [PARTS],
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node22',
    write: false,
    outfile: 'undici.cjs',
    plugins: [lazyUndici],
    logLevel: 'warning',
  });
  const text = result.outputFiles[0].text;
  const hash = createHash('sha256').update(text).digest('base64url').slice(0, 12);
  return { name: `undici-${hash}.cjs`, text };
}

/** Writes the bundle into the folder the transport's chunk is in. */
export function writeUndici(folder, { name, text }) {
  writeFileSync(join(folder, name), text);
}

/** The plugin: the transport's imports of undici-parts.js load the bundle, cached. */
export function cachedUndici({ name }) {
  return {
    name: 'cached-undici',
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: /^\.\/undici-parts\.js$/ }, ({ importer }) =>
        resolve(importer, '..', 'undici-parts.ts') === PARTS
          ? { path: 'undici-parts', namespace: 'cached-undici' }
          : undefined,
      );
      pluginBuild.onLoad({ filter: /.*/, namespace: 'cached-undici' }, () => ({
        // Lands in a chunk of dist/chunks/ (only imported behind import()), beside the bundle;
        // an e2e test fails if it ever cannot find it.
        contents: `import { loadCachedScript } from ${JSON.stringify(resolve('src/core/cached-script.ts'))};
const parts = loadCachedScript(new URL(${JSON.stringify(`./${name}`)}, import.meta.url));
export const Agent = parts.Agent;
export const loadProxyParts = parts.loadProxyParts;`,
        loader: 'js',
        resolveDir: resolve('src/api'),
      }));
    },
  };
}
