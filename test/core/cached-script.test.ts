import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  cacheName,
  loadCachedScript,
  nodeCacheFiles,
  type CacheFiles,
} from '../../src/core/cached-script.js';

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'cached-script-'));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

/** A bundle-like CommonJS file: requires a built-in, keeps a function for later calls. */
function script(name: string, body = ''): URL {
  const path = join(folder, name);
  writeFileSync(
    path,
    `const { join } = require('node:path');
${body}
module.exports = { joined: (a, b) => join(a, b), twice: (n) => n * 2 };`,
  );
  return pathToFileURL(path);
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

type Exports = { joined(a: string, b: string): string; twice(n: number): number };

describe('loadCachedScript', () => {
  it('runs the file, and keeps a cache at exit that the next load takes without writing again', () => {
    const file = script('bundle-abc.cjs');
    const memory = memoryFiles();
    const first = loadCachedScript(file, memory.files) as Exports;
    expect(first.joined('a', 'b')).toBe(join('a', 'b'));
    expect(first.twice(4)).toBe(8);
    expect(memory.stored.size).toBe(0);
    memory.exit();
    const cachePath = join('/cache', cacheName('bundle-abc.cjs'));
    expect([...memory.stored.keys()]).toEqual([cachePath]);
    const cache = memory.stored.get(cachePath)!;
    expect(cache.length).toBeGreaterThan(0);

    const second = loadCachedScript(file, memory.files) as Exports;
    expect(second.twice(21)).toBe(42);
    memory.exit();
    // Taken, not rejected: nothing new was written.
    expect(memory.stored.get(cachePath)).toBe(cache);
  });

  it('runs from the source when the cache is not V8 code, and replaces it', () => {
    const file = script('bundle-def.cjs');
    const memory = memoryFiles();
    const cachePath = join('/cache', cacheName('bundle-def.cjs'));
    const garbage = Buffer.from('not a code cache at all, only bytes');
    memory.stored.set(cachePath, garbage);
    expect((loadCachedScript(file, memory.files) as Exports).twice(3)).toBe(6);
    memory.exit();
    expect(memory.stored.get(cachePath)).not.toBe(garbage);
  });

  it('keeps no cache where there is no folder for one', () => {
    const memory = memoryFiles(null);
    expect((loadCachedScript(script('bundle-ghi.cjs'), memory.files) as Exports).twice(1)).toBe(2);
    memory.exit();
    expect(memory.stored.size).toBe(0);
  });

  it('refuses a require of anything but a built-in, saying which', () => {
    const file = script('bundle-jkl.cjs', "require('left-pad');");
    expect(() => loadCachedScript(file, memoryFiles().files)).toThrow(
      'a bundled script required left-pad, not a built-in',
    );
  });
});

describe('nodeCacheFiles', () => {
  it('writes the cache for this user alone, replacing earlier builds of the same file only', () => {
    const files = nodeCacheFiles();
    const earlier = join(folder, cacheName('undici-OLDHASH.cjs'));
    const other = join(folder, cacheName('other-OLDHASH.cjs'));
    writeFileSync(earlier, 'old');
    writeFileSync(other, 'other');
    const path = join(folder, cacheName('undici-NEWHASH.cjs'));
    files.write(path, Buffer.from('new'));
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(files.read(path)?.toString()).toBe('new');
    expect(readdirSync(folder).sort()).toEqual(
      [cacheName('other-OLDHASH.cjs'), cacheName('undici-NEWHASH.cjs')].sort(),
    );
  });

  it('reads no cache that others may write (it is code this process would run)', () => {
    const files = nodeCacheFiles();
    const path = join(folder, cacheName('undici-HASH.cjs'));
    files.write(path, Buffer.from('cache'));
    chmodSync(path, 0o666);
    expect(files.read(path)).toBeUndefined();
    chmodSync(path, 0o600);
    expect(files.read(path)?.toString()).toBe('cache');
    expect(files.read(join(folder, 'missing'))).toBeUndefined();
  });
});
