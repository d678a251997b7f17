import { execFileSync, spawn } from 'node:child_process';
import {
  chmodSync,
  mkdirSync,
  readFileSync,
  renameSync,
  symlinkSync,
  truncateSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  cacheName,
  cachedLoader,
  nodeCacheFiles,
  type CacheFiles,
} from '../../src/core/cached-script.js';

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'cached-script-'));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

/**
 * Two bundle-like CommonJS files: the entry requires a built-in, the other file by relative
 * path (which requires the entry back, as chunks may) and a package through requireOther.
 */
function program(): string {
  writeFileSync(
    join(folder, 'main-abc.cjs'),
    `const { join } = require('node:path');
exports.name = 'main';
const other = require('./chunks/other-def.cjs');
exports.joined = (a, b) => join(a, b);
exports.twice = (n) => other.twice(n);
exports.later = () => Promise.resolve().then(() => require('./chunks/other-def.cjs'));`,
  );
  const chunks = join(folder, 'chunks');
  mkdirSync(chunks);
  writeFileSync(
    join(chunks, 'other-def.cjs'),
    `const main = require('../main-abc.cjs');
const pad = require('left-pad');
exports.twice = (n) => n * 2;
exports.entryName = () => main.name;
exports.pad = pad;`,
  );
  return join(folder, 'main-abc.cjs');
}

/** Cache files in memory; saves wait for `exit(code)`. */
function memoryFiles(cacheFolder: string | null = '/cache') {
  const stored = new Map<string, Buffer>();
  const pending: ((code: number) => void)[] = [];
  const files: CacheFiles = {
    folder: cacheFolder ?? undefined,
    read: (path) => stored.get(path),
    write: (path, data) => stored.set(path, Buffer.from(data)),
    atExit: (save) => pending.push(save),
  };
  const exit = (code = 0) => pending.splice(0).forEach((save) => save(code));
  return { files, stored, exit };
}

type Main = {
  joined(a: string, b: string): string;
  twice(n: number): number;
  later(): Promise<{ entryName(): string; pad: string }>;
};
const requireOther = (id: string) => `package ${id}`;

describe('cachedLoader', () => {
  it('runs the files, each required once, built-ins and packages answered', async () => {
    const main = cachedLoader({ requireOther, files: memoryFiles().files })(program()) as Main;
    expect(main.joined('a', 'b')).toBe(join('a', 'b'));
    expect(main.twice(21)).toBe(42);
    const other = await main.later();
    expect(other.entryName()).toBe('main');
    expect(other.pad).toBe('package left-pad');
  });

  it('keeps a cache of each file at exit, which the next run takes without writing again', () => {
    const entry = program();
    const memory = memoryFiles();
    (cachedLoader({ requireOther, files: memory.files })(entry) as Main).twice(1);
    expect(memory.stored.size).toBe(0);
    memory.exit();
    const names = [cacheName('main-abc.cjs'), cacheName('other-def.cjs')];
    expect([...memory.stored.keys()].sort()).toEqual(names.map((name) => join('/cache', name)));
    const caches = new Map(memory.stored);

    const main = cachedLoader({ requireOther, files: memory.files })(entry) as Main;
    expect(main.twice(4)).toBe(8);
    memory.exit();
    // Taken, not rejected: nothing new was written.
    for (const [path, data] of caches) expect(memory.stored.get(path)).toBe(data);
  });

  it('runs from the source when a cache is not V8 code, and replaces it', () => {
    const entry = program();
    const memory = memoryFiles();
    const path = join('/cache', cacheName('main-abc.cjs'));
    const garbage = Buffer.from('not a code cache at all, only bytes');
    memory.stored.set(path, garbage);
    expect((cachedLoader({ requireOther, files: memory.files })(entry) as Main).twice(3)).toBe(6);
    memory.exit();
    expect(memory.stored.get(path)).not.toBe(garbage);
  });

  it('takes no cache with any bit of it changed, and replaces it', () => {
    fc.assert(
      fc.property(fc.nat(), fc.integer({ min: 0, max: 7 }), (at, bit) => {
        const entry = program();
        const memory = memoryFiles();
        cachedLoader({ requireOther, files: memory.files })(entry);
        memory.exit();
        const path = join('/cache', cacheName('main-abc.cjs'));
        const damaged = Buffer.from(memory.stored.get(path)!);
        damaged[at % damaged.length]! ^= 1 << bit;
        memory.stored.set(path, damaged);
        const main = cachedLoader({ requireOther, files: memory.files })(entry) as Main;
        expect(main.twice(5)).toBe(10);
        memory.exit();
        // Not taken: a new one was written over it.
        expect(memory.stored.get(path)).not.toBe(damaged);
        rmSync(folder, { recursive: true, force: true });
        mkdirSync(folder);
      }),
      { numRuns: 25 },
    );
  });

  it('takes no cache of a file since edited in place, its length and time as they were', () => {
    const entry = program();
    const memory = memoryFiles();
    // Called, so the cache holds it compiled: a cache taken would run the old code.
    expect((cachedLoader({ requireOther, files: memory.files })(entry) as Main).twice(5)).toBe(10);
    memory.exit();
    const other = join(folder, 'chunks', 'other-def.cjs');
    const times = join(folder, 'times');
    writeFileSync(times, '');
    execFileSync('touch', ['-r', other, times]);
    // The same length, another content, the same modification time to the nanosecond (touch -r,
    // cp -p): only its change time tells.
    writeFileSync(other, readFileSync(other, 'utf8').replace('n * 2', 'n * 3'));
    execFileSync('touch', ['-r', times, other]);
    expect(statSync(other, { bigint: true }).mtimeNs).toBe(
      statSync(times, { bigint: true }).mtimeNs,
    );
    const main = cachedLoader({ requireOther, files: memory.files })(entry) as Main;
    expect(main.twice(5)).toBe(15);
  });

  it('shares the caches of one build between two installs of it', () => {
    const memory = memoryFiles();
    cachedLoader({ requireOther, files: memory.files })(program());
    memory.exit();
    const caches = new Map(memory.stored);
    const copy = join(folder, 'copy');
    mkdirSync(join(copy, 'chunks'), { recursive: true });
    for (const file of ['main-abc.cjs', 'chunks/other-def.cjs']) {
      writeFileSync(join(copy, file), readFileSync(join(folder, file)));
    }
    const main = cachedLoader({ requireOther, files: memory.files })(
      join(copy, 'main-abc.cjs'),
    ) as Main;
    expect(main.twice(2)).toBe(4);
    memory.exit();
    for (const [path, data] of caches) expect(memory.stored.get(path)).toBe(data);
  });

  it('adds the functions of a run of a kind the cache has not seen, once for each kind', () => {
    const entry = program();
    const memory = memoryFiles();
    const path = join('/cache', cacheName('main-abc.cjs'));
    const run = (runKind: number, use: (main: Main) => unknown) => {
      use(cachedLoader({ requireOther, files: memory.files, runKind })(entry) as Main);
      memory.exit();
      return memory.stored.get(path)!;
    };
    const first = run(1, (main) => main.twice(1));
    expect(run(1, (main) => main.twice(2))).toBe(first);
    // Another kind of run, which calls a function the first did not: written again, larger.
    const second = run(2, (main) => main.joined('a', 'b'));
    expect(second).not.toBe(first);
    expect(second.length).toBeGreaterThan(first.length);
    // Both kinds are known now; the cache, taken, still runs either.
    expect(run(1, (main) => expect(main.twice(3)).toBe(6))).toBe(second);
    expect(run(2, (main) => expect(main.joined('c', 'd')).toBe(join('c', 'd')))).toBe(second);
  });

  it('adds to a cache for 32 kinds of run, and then keeps it as it is', () => {
    const entry = program();
    const memory = memoryFiles();
    const path = join('/cache', cacheName('main-abc.cjs'));
    const writes: Buffer[] = [];
    for (let kind = 1; kind <= 40; kind++) {
      cachedLoader({ requireOther, files: memory.files, runKind: kind })(entry);
      memory.exit();
      const now = memory.stored.get(path)!;
      if (now !== writes.at(-1)) writes.push(now);
    }
    expect(writes).toHaveLength(32);
  });

  it('neither reads nor writes the cache an earlier format kept for the same file', () => {
    const entry = program();
    const memory = memoryFiles();
    const earlier = join('/cache', 'petstore-main-abc.cjs.v8cache');
    const theirs = Buffer.from('PSC1 and the rest of an earlier format');
    memory.stored.set(earlier, theirs);
    cachedLoader({ requireOther, files: memory.files })(entry);
    memory.exit();
    expect(memory.stored.get(earlier)).toBe(theirs);
    expect(cacheName('main-abc.cjs')).not.toBe(basename(earlier));
    expect(memory.stored.has(join('/cache', cacheName('main-abc.cjs')))).toBe(true);
  });

  it('reads a file that is a FIFO whole, as Node would (its size says 0; a probe found it)', () => {
    const entry = program();
    const other = join(folder, 'chunks', 'other-def.cjs');
    const original = join(folder, 'other.original');
    renameSync(other, original);
    execFileSync('mkfifo', [other]);
    // The writer, another process: opening the FIFO to read waits for it.
    const writer = spawn('sh', ['-c', `cat "${original}" > "${other}"`], { stdio: 'ignore' });
    try {
      const main = cachedLoader({ requireOther, files: memoryFiles().files })(entry) as Main;
      expect(main.twice(21)).toBe(42);
    } finally {
      writer.kill();
    }
  });

  it('keeps no cache from a run that ended with an error', () => {
    const memory = memoryFiles();
    cachedLoader({ requireOther, files: memory.files })(program());
    memory.exit(2);
    expect(memory.stored.size).toBe(0);
  });

  it('keeps no cache where there is no folder for one', () => {
    const memory = memoryFiles(null);
    const main = cachedLoader({ requireOther, files: memory.files })(program()) as Main;
    expect(main.twice(1)).toBe(2);
    memory.exit();
    expect(memory.stored.size).toBe(0);
  });
});

describe('nodeCacheFiles', () => {
  it('writes a cache for this user alone, and reads none that others may write', () => {
    const files = nodeCacheFiles(folder);
    const path = join(folder, cacheName('undici-HASH.cjs'));
    files.write(path, Buffer.from('cache'));
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(files.read(path)?.toString()).toBe('cache');
    // A cache is code this process would run.
    chmodSync(path, 0o666);
    expect(files.read(path)).toBeUndefined();
    expect(files.read(join(folder, 'missing'))).toBeUndefined();
    expect(readdirSync(folder)).toEqual([cacheName('undici-HASH.cjs')]);
  });

  it('reads no file larger than any cache (a crash may leave one padded)', () => {
    const files = nodeCacheFiles(folder);
    const path = join(folder, cacheName('main-abc.cjs'));
    files.write(path, Buffer.from('cache'));
    truncateSync(path, 65 * 1024 * 1024);
    expect(files.read(path)).toBeUndefined();
  });

  it('reads through no link and waits on no FIFO', () => {
    const files = nodeCacheFiles(folder);
    const real = join(folder, cacheName('real.cjs'));
    files.write(real, Buffer.from('cache'));
    const link = join(folder, cacheName('link.cjs'));
    symlinkSync(real, link);
    expect(files.read(link)).toBeUndefined();
    const fifo = join(folder, cacheName('fifo.cjs'));
    execFileSync('mkfifo', [fifo]);
    // Would block for ever if opened as a file is.
    expect(files.read(fifo)).toBeUndefined();
  });

  it('writes through no link put at a staging name, and leaves no staging file', () => {
    const files = nodeCacheFiles(folder);
    const path = join(folder, cacheName('main-abc.cjs'));
    // A directory where the cache goes: the rename fails, the staging file is removed.
    mkdirSync(path);
    expect(() => files.write(path, Buffer.from('cache'))).toThrow();
    expect(readdirSync(folder)).toEqual([cacheName('main-abc.cjs')]);
  });

  it("keeps this run's caches and the newest others, 40 in all, leaving others' files", () => {
    const cacheFolder = join(folder, 'cache');
    mkdirSync(cacheFolder);
    for (let i = 0; i < 45; i++) {
      const path = join(cacheFolder, cacheName(`old-${i}.cjs`));
      writeFileSync(path, 'old');
      utimesSync(path, 1_000_000 + i, 1_000_000 + i);
    }
    // Dated ahead by a clock set wrong: the oldest, not the newest for ever.
    const future = Date.now() / 1000 + 10 * 365 * 24 * 3600;
    for (let i = 0; i < 3; i++) {
      const path = join(cacheFolder, cacheName(`ahead-${i}.cjs`));
      writeFileSync(path, 'ahead');
      utimesSync(path, future, future);
    }
    writeFileSync(join(cacheFolder, 'node-own-cache'), 'node');
    // A staging file a killed run left two hours ago, and one a run is writing now.
    const leftover = join(cacheFolder, `${cacheName('x.cjs')}.123-abc.tmp`);
    const writing = join(cacheFolder, `${cacheName('y.cjs')}.124-def.tmp`);
    writeFileSync(leftover, 'part');
    writeFileSync(writing, 'part');
    const twoHoursAgo = Date.now() / 1000 - 2 * 3600;
    utimesSync(leftover, twoHoursAgo, twoHoursAgo);
    // Dated ahead by a clock set wrong: as stale.
    const ahead = join(cacheFolder, `${cacheName('z.cjs')}.125-ghi.tmp`);
    writeFileSync(ahead, 'part');
    utimesSync(ahead, future, future);
    // Entries that cannot be read as files stop nothing.
    symlinkSync(join(cacheFolder, 'nowhere'), join(cacheFolder, 'petstore-dangling'));
    mkdirSync(join(cacheFolder, cacheName('a-folder.cjs')));
    const pending: ((code: number) => void)[] = [];
    const files: CacheFiles = {
      ...nodeCacheFiles(cacheFolder),
      atExit: (save) => void pending.push(save),
    };
    cachedLoader({ requireOther, files })(program());
    pending.forEach((save) => save(0));
    const left = readdirSync(cacheFolder);
    expect(left).toContain('node-own-cache');
    expect(left).toContain(cacheName('main-abc.cjs'));
    expect(left).toContain(cacheName('other-def.cjs'));
    expect(left).not.toContain(basename(leftover));
    expect(left).not.toContain(basename(ahead));
    expect(left).toContain(basename(writing));
    // 40 in all: this run's 2, the folder (the newest, which cannot be removed) and the 37
    // newest others; the ones dated ahead and old-0 .. old-7 went.
    expect(left.filter((name) => name.endsWith('.v8cache'))).toHaveLength(40);
    for (let i = 0; i < 3; i++) expect(left).not.toContain(cacheName(`ahead-${i}.cjs`));
    for (let i = 0; i < 8; i++) expect(left).not.toContain(cacheName(`old-${i}.cjs`));
    expect(left).toContain(cacheName('old-8.cjs'));
  });
});
