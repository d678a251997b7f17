// Runs the program's CommonJS files with V8's code cache taken after they have run. Node's
// compile cache is taken as a file is compiled, before any of its functions is: a bundle (its
// modules wrapped in functions, called later) gains little from it, and every run compiles
// again what it calls. Taken at exit instead, each file's cache holds every function the run
// used: one `pets list` GET measured 65.3 -> 56.5 ms.
import type { Buffer } from 'node:buffer';
import {
  closeSync,
  fstatSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { getCompileCacheDir } from 'node:module';
import { basename, dirname, join, resolve } from 'node:path';

export interface CacheFiles {
  /** The folder to keep caches in (Node's compile cache folder); undefined: none kept. */
  folder: string | undefined;
  read(path: string): Buffer | undefined;
  write(path: string, data: Buffer): void;
  /** Runs `save` when the process ends, when a cache holds what the run compiled. */
  atExit(save: () => void): void;
}

export interface LoadOptions {
  /** For what is neither a file of the program nor a built-in (a native binding's package). */
  requireOther: (id: string) => unknown;
  files?: CacheFiles;
}

const CACHE_SUFFIX = '.v8cache';

/**
 * A loader of CommonJS files whose names change with their content (the build puts a hash in
 * each): V8 checks a cache against its own version and flags and the source's length, not the
 * source itself, so a cache is found by the file's name. A file requires the program's other
 * files by relative path, Node's built-ins, and anything else through `requireOther`.
 */
export function cachedLoader(options: LoadOptions): (path: string) => unknown {
  const files = options.files ?? nodeCacheFiles();
  const loaded = new Map<string, { exports: unknown }>();
  const pending: [string, { createCachedData(): Buffer }][] = [];

  const load = (path: string): unknown => {
    const known = loaded.get(path);
    if (known) return known.exports;
    const source = readFileSync(path, 'utf8');
    const cachePath =
      files.folder === undefined ? undefined : join(files.folder, cacheName(basename(path)));
    const cached = cachePath === undefined ? undefined : files.read(cachePath);
    // node:vm's Script, taken when first needed (a class import would load it with the chunk).
    const script = new (process.getBuiltinModule('node:vm').Script)(
      `(function (exports, require, module, __filename, __dirname) {${source}\n})`,
      { filename: path, cachedData: cached },
    );
    const module = { exports: {} as unknown };
    // Before it runs: files may require each other in a circle, as ES modules may.
    loaded.set(path, module);
    const folder = dirname(path);
    const requireFrom = (id: string): unknown => {
      if (id.startsWith('./') || id.startsWith('../')) return load(resolve(folder, id));
      return process.getBuiltinModule(id) ?? options.requireOther(id);
    };
    const run = script.runInThisContext() as (...args: unknown[]) => void;
    run(module.exports, requireFrom, module, path, folder);
    if (cachePath !== undefined && (cached === undefined || script.cachedDataRejected === true)) {
      if (pending.length === 0) files.atExit(saveAll);
      pending.push([cachePath, script]);
    }
    return module.exports;
  };

  // At exit: by then each cache holds the functions this run called, compiled.
  const saveAll = () => {
    for (const [cachePath, script] of pending.splice(0)) {
      try {
        files.write(cachePath, script.createCachedData());
      } catch {
        // A cache that cannot be kept costs the next run time, nothing else.
      }
    }
    if (files.folder !== undefined) forgetOldCaches(files.folder);
  };
  return load;
}

/** The cache of `file`, named after the program and the file. */
export function cacheName(file: string): string {
  return `petstore-${file}${CACHE_SUFFIX}`;
}

/** Caches kept at most (about 3 MB): more than one build's, so two installs do not take turns. */
const MAX_CACHES = 40;

/** The oldest of this program's caches beyond MAX_CACHES, removed (those of earlier builds). */
function forgetOldCaches(folder: string): void {
  try {
    const caches = readdirSync(folder)
      .filter((name) => name.startsWith('petstore-') && name.endsWith(CACHE_SUFFIX))
      .map((name) => ({ path: join(folder, name), written: statSync(join(folder, name)).mtimeMs }))
      .sort((a, b) => b.written - a.written);
    for (const { path } of caches.slice(MAX_CACHES)) rmSync(path, { force: true });
  } catch {
    // Another run tidying at the same time: nothing lost.
  }
}

/**
 * The caches kept in Node's compile cache folder, as Node keeps its own. Read only from a file
 * of this user that no one else may write (a cache is code this process runs); written whole
 * (renamed into place).
 */
export function nodeCacheFiles(folder = getCompileCacheDir()): CacheFiles {
  return {
    folder,
    read(path) {
      let descriptor: number | undefined;
      try {
        descriptor = openSync(path, 'r');
        const stat = fstatSync(descriptor);
        const owned = process.getuid === undefined || stat.uid === process.getuid();
        if (!owned || (stat.mode & 0o022) !== 0 || !stat.isFile()) return undefined;
        return readFileSync(descriptor);
      } catch {
        return undefined;
      } finally {
        if (descriptor !== undefined) closeSync(descriptor);
      }
    },
    write(path, data) {
      const staging = `${path}.${process.pid}.tmp`;
      writeFileSync(staging, data, { mode: 0o600 });
      renameSync(staging, path);
    },
    atExit(save) {
      process.once('exit', save);
    },
  };
}
