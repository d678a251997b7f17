// Installs the npm package as a user would, from the tarball `npm run pack` makes, into a scratch
// prefix, and runs the quick start with the installed `petstore` against the embedded sandbox.
// Also checks that the man page and the completions came with it. Run by .ci/run after
// `npm test` (it needs the built dist/ and the npm registry); exits non-zero on any failure.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import process from 'node:process';
import { packPackage } from './pack.mjs';

const root = join(import.meta.dirname, '..');
const scratch = mkdtempSync(join(tmpdir(), 'petstore-package-'));
// `petstore` runs on the Node that runs this script (24 from the lockfile, or 22).
const path = [dirname(process.execPath), process.env.PATH].join(delimiter);
// npm keeps the user's own environment (its registry and CA settings live in the user's and
// the global npmrc); petstore runs in a new, empty home. npm itself runs on this script's Node
// too: from /usr/bin/env it would find the system's, and warn that the package needs a newer one.
const npmEnv = { ...process.env, PATH: path };
const npm = (args, options = {}) =>
  execFileSync('npm', args, {
    encoding: 'utf8',
    env: npmEnv,
    cwd: options.cwd ?? scratch,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
const run = (command, args, options = {}) =>
  execFileSync(command, args, {
    encoding: 'utf8',
    env: { PATH: path, HOME: join(scratch, 'home'), ...options.env },
    cwd: options.cwd ?? scratch,
    stdio: ['ignore', 'pipe', 'pipe'],
  });

function check(what, ok, detail = '') {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}${detail ? `: ${detail}` : ''}`);
  if (!ok) process.exitCode = 1;
}

try {
  const pack = packPackage(scratch);
  const tarball = join(scratch, pack.filename);
  check(
    'npm pack',
    existsSync(tarball),
    `${pack.filename}, ${pack.entryCount} files, ${(pack.size / 1024).toFixed(0)} KiB`,
  );

  const prefix = join(scratch, 'prefix');
  // With --prefix, npm would look for its global config (where the registry's CA file may be
  // named) under the new prefix: it is given the usual one explicitly.
  const globalconfig = npm(['config', 'get', 'globalconfig'], { cwd: root }).trim();
  const installing = spawnSync(
    'npm',
    [
      'install',
      '--global',
      '--prefix',
      prefix,
      '--globalconfig',
      globalconfig,
      '--no-audit',
      '--no-fund',
      tarball,
    ],
    { cwd: scratch, env: npmEnv, encoding: 'utf8' },
  );
  check('npm install of the tarball', installing.status === 0, installing.stderr.trim());
  // No install script of its own (npm 11 warns of each), no warning of any other kind.
  check(
    'installing runs no script and warns of nothing',
    !/warn/i.test(installing.stderr),
    installing.stderr.trim(),
  );
  const petstore = join(prefix, 'bin', 'petstore');
  check('installed bin/petstore', existsSync(petstore));
  check('petstore --version', run(petstore, ['--version']).trim() === pack.version);

  const added = run(petstore, [
    'pets',
    'add',
    '--name',
    'Rex',
    '--category-id',
    '1',
    '-o',
    'ndjson',
  ]);
  check(
    'quick start: pets add against the embedded sandbox',
    JSON.parse(added).name === 'Rex',
    added.trim(),
  );
  const listed = run(petstore, ['pets', 'list', '-o', 'ndjson']).trim().split('\n');
  check('quick start: pets list', listed.length === 1 && JSON.parse(listed[0]).name === 'Rex');

  const installed = join(prefix, 'lib', 'node_modules', pack.name);
  check(
    'npm-shrinkwrap.json in the package',
    pack.files.some((file) => file.path === 'npm-shrinkwrap.json'),
  );
  // The versions the tests ran with, not the newest the ranges allow.
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  for (const dependency of Object.keys(manifest.dependencies)) {
    const tested = lock.packages[`node_modules/${dependency}`]?.version;
    const path = join(installed, 'node_modules', dependency, 'package.json');
    const got = existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')).version : 'none';
    check(`${dependency} installed as tested`, got === tested, `${got}, tested ${tested}`);
  }
  check('man page linked', existsSync(join(prefix, 'share', 'man', 'man1', 'petstore.1')));
  for (const file of ['petstore.bash', '_petstore', 'petstore.fish']) {
    check(`completions/${file} in the package`, existsSync(join(installed, 'completions', file)));
  }
  const maps = readdirSync(join(installed, 'dist'), { recursive: true, encoding: 'utf8' }).filter(
    (name) => name.endsWith('.map'),
  );
  check('no source maps installed', maps.length === 0, maps.join(', '));
} catch (error) {
  check('package check', false, `${error.message}\n${error.stderr ?? ''}`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
