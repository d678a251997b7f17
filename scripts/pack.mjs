// Usage: npm run pack [-- DEST]. Builds, then makes petstore-cli-VERSION.tgz in DEST (default:
// the current folder; git ignores tarballs there) from the files `npm pack` would take, with
// the lockfile as npm-shrinkwrap.json and a package.json that keeps no scripts and no
// devDependencies, its direct dependencies pinned to the versions tested. The clone's
// `prepare` (which builds dist/ on `npm ci`) is no install script of the package, so
// installing the tarball runs nothing and npm warns of nothing.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import process from 'node:process';

const root = join(import.meta.dirname, '..');

const npm = (args, cwd) =>
  execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });

/**
 * The lockfile the tests ran with, as npm-shrinkwrap.json: installing the tarball then takes
 * the very versions that were tested, not the newest its ranges allow. Development packages
 * are left out (the package keeps no devDependencies), the root entry is the package's own.
 */
function shrinkwrap(manifest) {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
  const packages = {};
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (path === '') {
      const { name, version, license, dependencies, bin, engines } = manifest;
      packages[path] = { name, version, license, dependencies, bin, engines };
    } else if (entry.dev !== true) packages[path] = entry;
  }
  return `${JSON.stringify({ ...lock, packages }, null, 2)}\n`;
}

/** Packs the built tree into `destination`; returns what npm pack says of the tarball. */
export function packPackage(destination) {
  const [listed] = JSON.parse(npm(['pack', '--dry-run', '--json', '--ignore-scripts'], root));
  const stage = mkdtempSync(join(tmpdir(), 'petstore-pack-'));
  try {
    for (const { path } of listed.files) {
      if (path === 'package.json') continue;
      mkdirSync(join(stage, dirname(path)), { recursive: true });
      cpSync(join(root, path), join(stage, path));
    }
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    delete manifest.scripts;
    delete manifest.devDependencies;
    // npm ignores the shrinkwrap of a tarball installed from a file or URL (npm/cli#5349; a
    // registry install honours it): the direct dependencies are pinned to what was tested too.
    const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
    manifest.dependencies = Object.fromEntries(
      Object.keys(manifest.dependencies).map((name) => [
        name,
        lock.packages[`node_modules/${name}`].version,
      ]),
    );
    // npm packs a shrinkwrap only when `files` names it.
    manifest.files = [...manifest.files, 'npm-shrinkwrap.json'];
    writeFileSync(join(stage, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    writeFileSync(join(stage, 'npm-shrinkwrap.json'), shrinkwrap(manifest));
    mkdirSync(destination, { recursive: true });
    const [packed] = JSON.parse(
      npm(['pack', '--json', '--ignore-scripts', '--pack-destination', destination], stage),
    );
    return packed;
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

if (import.meta.main ?? process.argv[1] === import.meta.filename) {
  execFileSync(process.execPath, [join(root, 'scripts/build.mjs')], {
    cwd: root,
    stdio: 'inherit',
  });
  const packed = packPackage(resolve(process.argv[2] ?? '.'));
  console.log(packed.filename);
}
