// Bundles src/ into dist/ with code splitting, so that modules loaded on demand (undici, conf,
// cli-table3, chalk, the sandbox) stay out of the start-up path of --version and --help.
import { build } from 'esbuild';
import { readFile, rm, writeFile } from 'node:fs/promises';

const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));

await rm(new URL('../dist', import.meta.url), { recursive: true, force: true });
const result = await build({
  entryPoints: { main: 'src/main.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  sourcemap: true,
  metafile: true,
  chunkNames: 'chunks/[name]-[hash]',
  define: { __PETSTORE_VERSION__: JSON.stringify(pkg.version) },
  // Bundled CommonJS (undici) calls require() for Node built-ins; ESM has no require.
  banner: {
    js: "import { createRequire as __petstoreCreateRequire } from 'node:module'; const require = __petstoreCreateRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
await writeFile(new URL('../dist/meta.json', import.meta.url), JSON.stringify(result.metafile));
