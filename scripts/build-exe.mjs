// Builds the single executable: dist/exe/petstore-<platform>-<arch>, a copy of the Node binary
// that runs this script (24, from the lockfile) with petstore injected as a Node single
// executable application (SEA). It needs no Node on the machine it runs on; node:sqlite (the
// sandbox) is inside. The OS keyring binding, a native module, is not: keys go to the file.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';
import { lazyBuiltins } from './lazy-builtins.mjs';
import { lazyUndici } from './lazy-undici.mjs';

const root = join(import.meta.dirname, '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const work = join(root, 'dist', 'sea');
const outDir = join(root, 'dist', 'exe');
const target = join(outDir, `petstore-${process.platform}-${process.arch}`);
rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
mkdirSync(outDir, { recursive: true });

// One CommonJS file, as SEA runs it: what bin/petstore.js does, without the version check
// (the Node inside is the one this script runs on).
await build({
  stdin: {
    contents: `import { main } from './src/main.ts';
void (async () => {
  const selfCommand = [process.execPath];
  const code = await main(process.argv.slice(2), undefined, undefined, {
    selfCommand,
    endsWithProcess: true,
  });
  if (code === 130 || code === 143) process.exit(code);
  process.exitCode = code;
})();`,
    resolveDir: root,
    loader: 'ts',
    sourcefile: 'sea-entry.ts',
  },
  outfile: join(work, 'petstore.cjs'),
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node24',
  define: { __PETSTORE_VERSION__: JSON.stringify(pkg.version) },
  external: ['@napi-rs/keyring'],
  // As in the npm build: built-ins and undici's HTTP/2 half loaded when first used.
  plugins: [lazyBuiltins, lazyUndici],
  logLevel: 'error',
});

const config = {
  main: join(work, 'petstore.cjs'),
  output: join(work, 'petstore.blob'),
  disableExperimentalSEAWarning: true,
  useCodeCache: process.env.PETSTORE_SEA_CODE_CACHE !== '0',
  assets: { 'help.json': join(root, 'dist', 'help.json') },
};
writeFileSync(join(work, 'sea-config.json'), JSON.stringify(config, null, 2));
execFileSync(process.execPath, ['--experimental-sea-config', join(work, 'sea-config.json')], {
  stdio: 'inherit',
});

rmSync(target, { force: true });
copyFileSync(process.execPath, target);
chmodSync(target, 0o755);
execFileSync(
  process.execPath,
  [
    join(root, 'node_modules', 'postject', 'dist', 'cli.js'),
    target,
    'NODE_SEA_BLOB',
    config.output,
    '--sentinel-fuse',
    'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2',
  ],
  // postject warns about ELF note sections it does not touch; only a failure matters.
  { stdio: ['ignore', 'ignore', 'pipe'] },
);
const size = statSync(target).size;
console.log(`${target}: ${(size / 1024 / 1024).toFixed(1)} MiB`);
