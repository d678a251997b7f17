// Usage: npm run pack [-- DEST]. Builds, then makes petstore-cli-VERSION.tgz in DEST (default:
// the current folder) from the files `npm pack` would take, with a package.json that keeps no
// scripts and no devDependencies: the clone's `prepare` (which builds dist/ on `npm ci`) is
// no install script of the package, so installing the tarball runs nothing and npm warns of
// nothing.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import process from 'node:process';

const root = join(import.meta.dirname, '..');

const npm = (args, cwd) =>
  execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });

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
    writeFileSync(join(stage, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
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
