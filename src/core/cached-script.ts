// Runs the program's CommonJS files with V8's code cache taken after they have run. Node's
// compile cache is taken as a file is compiled, before any of its functions is: a bundle (its
// modules wrapped in functions, called later) gains little from it, and every run compiles
// again what it calls. Taken at exit instead, each file's cache holds every function the run
// used: one `pets list` GET measured 68.2 -> 58.4 ms.
//
// V8 checks a cache only against its own version and flags and the lengths of the source and
// the cache: not their bytes. So each cache carries a checksum of itself (a damaged one could
// crash or hang the process) and one of the source it was made from (a file edited in place,
// to the same length, must not run its old code; two installs of one build share caches).
import { Buffer, isAscii } from 'node:buffer';
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { getCompileCacheDir } from 'node:module';
import { basename, dirname, join, resolve } from 'node:path';
import { canChecksum, checksum64, readSummed } from './checksum.js';

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
  /**
   * What kind of run this is (a nonzero number: a hash of the command it runs). A cache holds
   * the functions of the runs that made it; a run of a kind it has not seen adds its own (a
   * cache made by `completion bash` alone would leave `pets list` compiling its functions
   * again on every run). Absent: a cache, once kept, is kept as it is.
   */
  runKind?: number;
}

const CACHE_SUFFIX = '.v8cache';
/**
 * The format of the caches, in their names as well as their headers: a petstore keeping
 * another format (an earlier one, installed beside) keeps its own files, and neither version
 * rewrites the other's cache on every run.
 */
const FORMAT = 'PSC3';
/** The format's four letters, as the header's first four bytes read (little-endian). */
const MAGIC =
  Array.from(FORMAT).reduceRight((word, letter) => (word << 8) | letter.charCodeAt(0), 0) >>> 0;
/** The kinds of run a cache records: after this many, it is kept as it is. */
const RUN_KINDS = 32;
/**
 * Magic, the checksum of the rest, 4 bytes of 0, the checksum of the source, then the kinds of
 * run that made the cache (0 for none). A multiple of 8: V8 copies a cache not so aligned.
 */
const HEADER_BYTES = 4 + 8 + 4 + 8 + 4 * RUN_KINDS;
const CHECKED_FROM = 12;
const KINDS_AT = 24;

interface Kept {
  /** The V8 cache. */
  data: Buffer;
  /** The kinds of run whose functions it holds. */
  kinds: number[];
}

/**
 * The file as text, and the checksum of its bytes: read straight into the checksum's memory.
 * An ASCII file (every built one) is read as Latin-1, faster than as UTF-8 (the same text).
 * Not a regular file (a FIFO, whose size says nothing), or one grown since its size was
 * taken: read whole, as Node would.
 */
function readSource(path: string): { source: string; sourceSum: bigint } {
  const descriptor = openSync(path, 'r');
  try {
    const stat = fstatSync(descriptor);
    const read = (fd: number, into: Uint8Array, at: number) =>
      readSync(fd, into, 0, into.length, at);
    if (stat.isFile()) {
      const { bytes, sum } = readSummed(descriptor, stat.size, read);
      if (bytes.length < stat.size || read(descriptor, new Uint8Array(1), stat.size) === 0) {
        const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
        return { source: decode(text), sourceSum: sum };
      }
    }
    const whole = readFileSync(descriptor);
    return { source: decode(whole), sourceSum: checksum64(whole) };
  } finally {
    closeSync(descriptor);
  }
}

const decode = (bytes: Buffer) =>
  isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');

/**
 * A loader of CommonJS files, each cached under its file name (the build puts a content hash in
 * each, so two builds' caches stand side by side; the checksums decide whether one fits). A
 * file requires the program's other files by relative path, Node's built-ins, and anything
 * else through `requireOther`.
 */
export function cachedLoader(options: LoadOptions): (path: string) => unknown {
  const files = options.files ?? nodeCacheFiles();
  // No cache without a checksum to check it by (no WebAssembly: node --jitless).
  const cacheFolder = files.folder !== undefined && canChecksum() ? files.folder : undefined;
  const loaded = new Map<string, { exports: unknown }>();
  const pending: {
    cachePath: string;
    sourceSum: bigint;
    kinds: number[];
    script: { createCachedData(): Buffer };
  }[] = [];
  const { runKind } = options;
  /** The caches this run took, kept when tidying. */
  const taken = new Set<string>();

  const load = (path: string): unknown => {
    const known = loaded.get(path);
    if (known) return known.exports;
    const cachePath =
      cacheFolder === undefined ? undefined : join(cacheFolder, cacheName(basename(path)));
    if (cachePath === undefined) {
      run(path, readFileSync(path, 'utf8'), undefined);
      return loaded.get(path)!.exports;
    }
    const { source, sourceSum } = readSource(path);
    const kept = unpack(files.read(cachePath), sourceSum);
    const script = run(path, source, kept);
    const taking = kept !== undefined && script.cachedDataRejected !== true;
    const kinds = taking ? kept.kinds : [];
    const newKind = runKind !== undefined && !kinds.includes(runKind) && kinds.length < RUN_KINDS;
    if (!taking || newKind) {
      // Made anew at exit: V8 writes every function compiled by then, those the cache brought
      // and those this run compiled besides.
      if (pending.length === 0) files.atExit(saveAll);
      pending.push({
        cachePath,
        sourceSum,
        kinds: runKind === undefined || !newKind ? kinds : [...kinds, runKind],
        script,
      });
    }
    if (taking) taken.add(basename(cachePath));
    return loaded.get(path)!.exports;
  };

  /** Runs the file, with the cache if there is one; returns its Script. */
  const run = (path: string, source: string, kept: Kept | undefined) => {
    // node:vm's Script, taken when first needed (a class import would load it with the chunk).
    const script = new (process.getBuiltinModule('node:vm').Script)(
      `(function (exports, require, module, __filename, __dirname) {${source}\n})`,
      { filename: path, cachedData: kept?.data },
    );
    const module = { exports: {} as unknown };
    // Before it runs: files may require each other in a circle, as ES modules may.
    loaded.set(path, module);
    const folder = dirname(path);
    const requireFrom = (id: string): unknown => {
      if (id.startsWith('./') || id.startsWith('../')) return load(resolve(folder, id));
      return process.getBuiltinModule(id) ?? options.requireOther(id);
    };
    const body = script.runInThisContext() as (...args: unknown[]) => void;
    body(module.exports, requireFrom, module, path, folder);
    return script;
  };

  // At exit, by then each cache holding the functions this run called, compiled; only after a
  // run that succeeded (one that failed early, at a usage error, used little of the program).
  const saveAll = (code: number) => {
    if (code !== 0) return;
    const kept = new Set(taken);
    for (const { cachePath, sourceSum, kinds, script } of pending.splice(0)) {
      try {
        files.write(cachePath, pack(script.createCachedData(), sourceSum, kinds));
        kept.add(basename(cachePath));
      } catch {
        // A cache that cannot be kept costs the next run time, nothing else.
      }
    }
    if (cacheFolder !== undefined) tidy(cacheFolder, kept);
  };
  return load;
}

/** The cache with its header. */
function pack(data: Buffer, sourceSum: bigint, kinds: readonly number[]): Uint8Array {
  const packed = new Uint8Array(HEADER_BYTES + data.length);
  const view = new DataView(packed.buffer);
  view.setUint32(0, MAGIC, true);
  view.setBigUint64(16, sourceSum, true);
  kinds.forEach((kind, at) => view.setUint32(KINDS_AT + 4 * at, kind, true));
  packed.set(data, HEADER_BYTES);
  view.setBigUint64(4, checksum64(packed.subarray(CHECKED_FROM)), true);
  return packed;
}

/** The V8 cache in a kept file, if it is whole and was made from this very source. */
function unpack(file: Buffer | undefined, sourceSum: bigint): Kept | undefined {
  if (file === undefined || file.length <= HEADER_BYTES) return undefined;
  const view = new DataView(file.buffer, file.byteOffset, file.length);
  if (view.getUint32(0, true) !== MAGIC) return undefined;
  if (view.getBigUint64(16, true) !== sourceSum) return undefined;
  if (view.getBigUint64(4, true) !== checksum64(file.subarray(CHECKED_FROM))) return undefined;
  const kinds: number[] = [];
  for (let at = 0; at < RUN_KINDS; at++) {
    const kind = view.getUint32(KINDS_AT + 4 * at, true);
    if (kind !== 0) kinds.push(kind);
  }
  return { data: file.subarray(HEADER_BYTES), kinds };
}

/** The cache of `file`, named after the program, the format and the file. */
export function cacheName(file: string): string {
  return `petstore-${FORMAT.toLowerCase()}-${file}${CACHE_SUFFIX}`;
}

/** Caches kept at most (about 3 MB): more than one build's, so two installs do not take turns. */
const MAX_CACHES = 40;
/** A staging file this old was left by a run that stopped before renaming it. */
const STALE_STAGING_MS = 60 * 60 * 1000;
/** Larger than any cache of the program: a file this large is not read (a crash may pad one). */
const MAX_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * This program's oldest caches beyond MAX_CACHES removed (those of earlier builds), never one
 * this run took or wrote; and staging files that runs left behind (an hour away from now,
 * either way). An entry that cannot be read or removed is passed over.
 */
function tidy(folder: string, kept: ReadonlySet<string>): void {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return;
  }
  const now = Date.now();
  const caches: { path: string; at: number }[] = [];
  for (const name of names) {
    if (!name.startsWith('petstore-')) continue;
    const path = join(folder, name);
    try {
      const at = lstatSync(path).mtimeMs;
      if (name.endsWith('.tmp') && name.includes(`${CACHE_SUFFIX}.`)) {
        if (Math.abs(now - at) > STALE_STAGING_MS) rmSync(path, { force: true });
      } else if (name.endsWith(CACHE_SUFFIX) && !kept.has(name)) {
        // Dated ahead by a clock set wrong: as old as can be, not the newest for ever.
        caches.push({ path, at: at - now > STALE_STAGING_MS ? -Infinity : at });
      }
    } catch {
      // Gone meanwhile (another run tidying), or not ours to remove (a folder): passed over.
    }
  }
  caches.sort((a, b) => b.at - a.at);
  for (const { path } of caches.slice(Math.max(0, MAX_CACHES - kept.size))) {
    try {
      rmSync(path, { force: true });
    } catch {
      // As above.
    }
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
        if (stat.size > MAX_CACHE_BYTES) return undefined;
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
