import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

/** Cache files in memory; saves wait for `exit()`. */
function memoryFiles(cacheFolder: string | null = '/cache') {
  const stored = new Map<string, Buffer>();
  const pending: (() => void)[] = [];
  const files: CacheFiles = {
    folder: cacheFolder ?? undefined,
    read: (path) => stored.get(path),
    write: (path, data) => stored.set(path, data),
    atExit: (save) => pending.push(save),
  };
  return { files, stored, exit: () => pending.splice(0).forEach((save) => save()) };
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
  });

  it("keeps this program's 40 newest caches once it writes one, and others' files", () => {
    const cacheFolder = join(folder, 'cache');
    mkdirSync(cacheFolder);
    for (let i = 0; i < 45; i++) {
      const path = join(cacheFolder, cacheName(`old-${i}.cjs`));
      writeFileSync(path, 'old');
      utimesSync(path, 1_000_000 + i, 1_000_000 + i);
    }
    writeFileSync(join(cacheFolder, 'node-own-cache'), 'node');
    const memory = { pending: [] as (() => void)[] };
    const files = {
      ...nodeCacheFiles(cacheFolder),
      atExit: (save: () => void) => memory.pending.push(save),
    };
    cachedLoader({ requireOther, files })(program());
    memory.pending.forEach((save) => save());
    const left = readdirSync(cacheFolder);
    expect(left).toContain('node-own-cache');
    expect(left).toContain(cacheName('main-abc.cjs'));
    expect(left).toContain(cacheName('other-def.cjs'));
    const mine = left.filter((name) => name.startsWith('petstore-'));
    expect(mine).toHaveLength(40);
    // The oldest went: old-0 .. old-6 (45 + 2 new - 40 = 7).
    for (let i = 0; i < 7; i++) expect(left).not.toContain(cacheName(`old-${i}.cjs`));
    expect(left).toContain(cacheName('old-7.cjs'));
  });
});
