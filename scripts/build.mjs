// Bundles src/ into dist/ with code splitting, so that modules loaded on demand (undici, conf,
// cli-table3, chalk, the sandbox) stay out of the start-up path of --version and --help; then
// Rollup regroups esbuild's many small chunks into few files (scripts/rechunk.mjs).
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lazyBuiltins } from './lazy-builtins.mjs';
import { lazyUndici } from './lazy-undici.mjs';
import { manPage } from './man-page.mjs';
import { rechunk } from './rechunk.mjs';

const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));

await rm(new URL('../dist', import.meta.url), { recursive: true, force: true });
const split = mkdtempSync(join(tmpdir(), 'petstore-esbuild-'));
const result = await build({
  entryPoints: { main: 'src/main.ts' },
  outdir: split,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  sourcemap: true,
  metafile: true,
  chunkNames: 'chunks/[name]-[hash]',
  // A native binding: loaded from node_modules at run time, never bundled.
  external: ['@napi-rs/keyring'],
  define: { __PETSTORE_VERSION__: JSON.stringify(pkg.version) },
  // ESM imports of built-ins, loaded when first used and without ESM facades; undici's
  // HTTP/2 half and its node:assert, loaded only when used.
  plugins: [lazyBuiltins, lazyUndici],
  logLevel: 'warning',
});
const { meta } = await rechunk(split, 'dist', result.metafile);
rmSync(split, { recursive: true, force: true });
await writeFile(new URL('../dist/meta.json', import.meta.url), JSON.stringify(meta));

// Help for every command, rendered by the program just built, as it prints it to a pipe or
// file; the program's entry answers `--help` from it without loading commander (a test checks
// that each text equals the live one).
const home = mkdtempSync(join(tmpdir(), 'petstore-build-'));
// No compile cache: the runs of a build would leave caches of its help in the user's folder.
const env = {
  PATH: process.env.PATH,
  HOME: home,
  XDG_CONFIG_HOME: home,
  XDG_DATA_HOME: home,
  NODE_DISABLE_COMPILE_CACHE: '1',
};
const run = (args, columns) =>
  execFileSync(process.execPath, ['bin/petstore.js', ...args], {
    encoding: 'utf8',
    env: columns === undefined ? env : { ...env, COLUMNS: String(columns) },
  });
const paths = [...run(['completion', 'bash']).matchAll(/^\s+"([^"]*)"\) words=/gm)].map(
  (match) => match[1],
);
const help = {};
for (const path of paths) help[path] = run([...(path ? path.split(' ') : []), '--help']);
// The help topics the program's own help names (petstore help environment, ...).
const topics = /^Help topics: ([\w, -]+)\s+\(/m.exec(help[''])[1].split(', ');
for (const topic of topics) help[`topic:${topic}`] = run(['help', topic]);
await writeFile(new URL('../dist/help.json', import.meta.url), JSON.stringify(help));
// The man page's, laid out narrower by the indent man gives a section's text: at MANWIDTH=80
// no line is wider than 80.
const MAN_COLUMNS = 72;
const manHelp = {};
for (const key of Object.keys(help)) {
  const args = key.startsWith('topic:')
    ? ['help', key.slice('topic:'.length)]
    : [...(key ? key.split(' ') : []), '--help'];
  manHelp[key] = run(args, MAN_COLUMNS);
}
rmSync(home, { recursive: true, force: true });

await writeFile(
  new URL('../dist/petstore.1', import.meta.url),
  manPage({ version: pkg.version, help: manHelp, commands: paths.filter(Boolean), topics }),
);
