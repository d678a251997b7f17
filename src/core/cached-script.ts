// Runs the program's CommonJS files with V8's code cache taken after they have run. Node's
// compile cache is taken as a file is compiled, before any of its functions is: a bundle (its
// modules wrapped in functions, called later) gains little from it, and every run compiles
// again what it calls. Taken at exit instead, each file's cache holds every function the run
// used: one `pets list` GET measured 68.2 -> 58.4 ms.
//
// V8 checks a cache only against its own version and flags and the lengths of the source and
// the cache: not their bytes. So each cache carries a checksum of itself (a damaged one could
// crash or hang the process) and the source file's size, time and inode (a file edited in
// place, to the same length, must not run its old code); the build also names every file by
// its content.
import type { Buffer } from 'node:buffer';
import {
  closeSync,
  constants,
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
import { checksum64 } from './checksum.js';

export interface CacheFiles {
  /** The folder to keep caches in (Node's compile cache folder); undefined: none kept. */
  folder: string | undefined;
  read(path: string): Buffer | undefined;
  write(path: string, data: Uint8Array): void;
  /** Runs `save` with the exit code when the process ends. */
  atExit(save: (code: number) => void): void;
}

export interface LoadOptions {
  /** For what is neither a file of the program nor a built-in (a native binding's package). */
  requireOther: (id: string) => unknown;
  files?: CacheFiles;
}

const CACHE_SUFFIX = '.v8cache';
const MAGIC = 0x31435350; // "PSC1"
/** Magic, checksum of the rest, then the source's size, modification time and inode. */
const HEADER_BYTES = 4 + 8 + 3 * 8;

/**
 * A loader of CommonJS files whose names change with their content (the build puts a hash in
 * each). A file requires the program's other files by relative path, Node's built-ins, and
 * anything else through `requireOther`.
 */
export function cachedLoader(options: LoadOptions): (path: string) => unknown {
  const files = options.files ?? nodeCacheFiles();
  const loaded = new Map<string, { exports: unknown }>();
  const pending: [string, Float64Array, { createCachedData(): Buffer }][] = [];

  const load = (path: string): unknown => {
    const known = loaded.get(path);
    if (known) return known.exports;
    const descriptor = openSync(path, 'r');
    let source: string;
    let stamp: Float64Array;
    try {
      const stat = fstatSync(descriptor);
      stamp = new Float64Array([stat.size, stat.mtimeMs, stat.ino]);
      source = readFileSync(descriptor, 'utf8');
    } finally {
      closeSync(descriptor);
    }
    const cachePath =
      files.folder === undefined ? undefined : join(files.folder, cacheName(basename(path)));
    const cached = cachePath === undefined ? undefined : unpack(files.read(cachePath), stamp);
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
      pending.push([cachePath, stamp, script]);
    }
    return module.exports;
  };

  // At exit, by then each cache holding the functions this run called, compiled; only after a
  // run that succeeded (one that failed early, at a usage error, used little of the program).
  const saveAll = (code: number) => {
    if (code !== 0) return;
    const written = new Set<string>();
    for (const [cachePath, stamp, script] of pending.splice(0)) {
      try {
        files.write(cachePath, pack(script.createCachedData(), stamp));
        written.add(basename(cachePath));
      } catch {
        // A cache that cannot be kept costs the next run time, nothing else.
      }
    }
    if (files.folder !== undefined) tidy(files.folder, written);
  };
  return load;
}

/** The cache with its header. */
function pack(data: Buffer, stamp: Float64Array): Uint8Array {
  const packed = new Uint8Array(HEADER_BYTES + data.length);
  const view = new DataView(packed.buffer);
  view.setUint32(0, MAGIC, true);
  packed.set(new Uint8Array(stamp.buffer), 12);
  packed.set(data, HEADER_BYTES);
  view.setBigUint64(4, checksum64(packed.subarray(12)), true);
  return packed;
}

/** The V8 cache in a kept file, if it is whole and made from this very source file. */
function unpack(file: Buffer | undefined, stamp: Float64Array): Buffer | undefined {
  if (file === undefined || file.length <= HEADER_BYTES) return undefined;
  const view = new DataView(file.buffer, file.byteOffset, file.length);
  if (view.getUint32(0, true) !== MAGIC) return undefined;
  for (let i = 0; i < 3; i++) {
    if (view.getFloat64(12 + i * 8, true) !== stamp[i]) return undefined;
  }
  if (view.getBigUint64(4, true) !== checksum64(file.subarray(12))) return undefined;
  return file.subarray(HEADER_BYTES);
}

/** The cache of `file`, named after the program and the file. */
export function cacheName(file: string): string {
  return `petstore-${file}${CACHE_SUFFIX}`;
}

/** Caches kept at most (about 3 MB): more than one build's, so two installs do not take turns. */
const MAX_CACHES = 40;
/** A staging file this old was left by a run that stopped before renaming it. */
const STALE_STAGING_MS = 60 * 60 * 1000;

/**
 * This program's oldest caches beyond MAX_CACHES removed (those of earlier builds), never one
 * this run wrote; and staging files runs left behind.
 */
function tidy(folder: string, written: ReadonlySet<string>): void {
  try {
    const now = Date.now();
    const caches: { path: string; at: number }[] = [];
    for (const name of readdirSync(folder)) {
      if (!name.startsWith('petstore-')) continue;
      const path = join(folder, name);
      const at = statSync(path).mtimeMs;
      if (name.endsWith('.tmp') && name.includes(`${CACHE_SUFFIX}.`)) {
        if (now - at > STALE_STAGING_MS) rmSync(path, { force: true });
      } else if (name.endsWith(CACHE_SUFFIX) && !written.has(name)) {
        caches.push({ path, at });
      }
    }
    caches.sort((a, b) => b.at - a.at);
    for (const { path } of caches.slice(Math.max(0, MAX_CACHES - written.size))) {
      rmSync(path, { force: true });
    }
  } catch {
    // Another run tidying at the same time: nothing lost.
  }
}

/**
 * The caches kept in Node's compile cache folder, as Node keeps its own. Read only from a
 * regular file (not through a link, and without waiting on a FIFO) of this user that no one
 * else may write; written to a new file of a random name, created only if none is there (never
 * through a link someone put there), then renamed into place.
 */
export function nodeCacheFiles(folder = getCompileCacheDir()): CacheFiles {
  return {
    folder,
    read(path) {
      let descriptor: number | undefined;
      try {
        descriptor = openSync(
          path,
          constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK,
        );
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
      const staging = `${path}.${process.pid}-${Math.random().toString(36).slice(2)}.tmp`;
      try {
        writeFileSync(staging, data, { mode: 0o600, flag: 'wx' });
        renameSync(staging, path);
      } catch (error) {
        // Written in part (a full disk) or not renamed: removed; one that was there, left.
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') rmSync(staging, { force: true });
        throw error;
      }
    },
    atExit(save) {
      process.once('exit', save);
    },
  };
}
