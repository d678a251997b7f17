import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { lockWithin, tryLock, type LockAttempt } from '../../src/core/kernel-lock.js';

function lockPath(): string {
  return join(mkdtempSync(join(tmpdir(), 'petstore-lock-')), 'journal.lock');
}

/**
 * Another process holding the lock as petstore takes it (an exclusive SQLite transaction on
 * the file), started with `prefix` (e.g. another pid namespace); resolves once it holds it.
 */
const HOLDER = `
const { DatabaseSync } = require('node:sqlite');
const db = new DatabaseSync(process.argv[1], { timeout: 0 });
db.exec('PRAGMA locking_mode = EXCLUSIVE; PRAGMA journal_mode = MEMORY; BEGIN EXCLUSIVE');
process.stdout.write('held\\n');
setTimeout(() => process.exit(0), 60_000); // never outlives a test run
`;
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

function holder(path: string, prefix: string[] = []): Promise<ChildProcess> {
  const [command, ...args] = [...prefix, process.execPath, '--no-warnings', '-e', HOLDER, path];
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.stdout.once('data', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`the holder ended (${code})`)));
  });
}

async function killed(child: ChildProcess): Promise<void> {
  const gone = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await gone;
}

/** Another pid namespace, as a container with the host's network has (root only). */
const otherNamespace =
  process.getuid?.() === 0 &&
  spawnSync('unshare', ['-p', '-f', '--kill-child', '--mount-proc', 'true']).status === 0;

describe('a kernel lock', () => {
  it('is taken by exactly one of any number of takers at once, and again once released', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 2, max: 10 }), async (takers) => {
        const path = lockPath();
        const attempts: LockAttempt[] = await Promise.all(
          Array.from({ length: takers }, () => tryLock(path)),
        );
        const taken = attempts.filter((attempt) => attempt.taken);
        expect(taken).toHaveLength(1);
        for (const busy of attempts.filter((attempt) => !attempt.taken)) {
          expect(busy.owner).toMatchObject({ pid: process.pid, host: hostname() });
        }
        await taken[0]!.release();
        await taken[0]!.release(); // once only
        const next = await tryLock(path);
        expect(next.taken).toBe(true);
        if (next.taken) await next.release();
      }),
      { numRuns: 30 },
    );
  });

  it('is not taken while another process holds it, and is free the moment it is killed', async () => {
    const path = lockPath();
    const child = await holder(path);
    expect(await tryLock(path)).toMatchObject({ taken: false });
    await killed(child);
    const after = await tryLock(path);
    expect(after.taken).toBe(true);
    if (after.taken) await after.release();
  });

  it.runIf(otherNamespace)('holds against a process in another pid namespace', async () => {
    const path = lockPath();
    const child = await holder(path, ['unshare', '-p', '-f', '--kill-child', '--mount-proc']);
    expect((await tryLock(path)).taken).toBe(false);
    await killed(child);
    // unshare's child dies with it (--kill-child).
    const after = await lockWithin(path, 5_000);
    expect(after.taken).toBe(true);
    if (after.taken) await after.release();
  });

  it('no owner record decides it: one naming a live process or none at all is not a lock', async () => {
    for (const owner of [
      { pid: process.pid, host: hostname() },
      { pid: 1, host: hostname() },
      { pid: 12345, host: 'elsewhere.example' },
    ]) {
      const path = lockPath();
      writeFileSync(`${path}.owner`, JSON.stringify(owner));
      const attempt = await tryLock(path);
      expect(attempt.taken).toBe(true);
      if (attempt.taken) await attempt.release();
    }
  });

  it('lockWithin waits for a lock to be released, or gives up naming the owner', async () => {
    const path = lockPath();
    const held = await tryLock(path);
    if (!held.taken) throw new Error('not taken');
    expect(await lockWithin(path, 150)).toMatchObject({
      taken: false,
      owner: { pid: process.pid },
    });
    // Its first try is made at the call, refused; the lock let go after it, a later one takes it.
    const waiting = lockWithin(path, 10_000);
    await held.release();
    const waited = await waiting;
    expect(waited.taken).toBe(true);
    if (waited.taken) await waited.release();
  });
});
