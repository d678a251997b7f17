import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lockWithin, tryLock, type LockAttempt } from '../../src/core/file-lock.js';

/** No process has a pid above the kernel's maximum (2^22): its owner is gone. */
const DEAD_PID = 2 ** 22 + 1;

/** What a lock left behind can look like. */
const leftovers = {
  none: () => undefined,
  'stale (this version)': (path: string) =>
    writeFileSync(path, JSON.stringify({ pid: DEAD_PID, host: hostname(), token: 'abc' })),
  'stale (earlier journal lock)': (path: string) =>
    writeFileSync(path, JSON.stringify({ pid: DEAD_PID, host: hostname() })),
  'stale (earlier config lock: a bare pid)': (path: string) => writeFileSync(path, `${DEAD_PID}`),
  'stale, with a claim on it whose holder died too': (path: string) => {
    writeFileSync(path, JSON.stringify({ pid: DEAD_PID, host: hostname(), token: 'abc' }));
    writeFileSync(
      `${path}.takeover-abc`,
      JSON.stringify({ pid: DEAD_PID, host: hostname(), token: 'def' }),
    );
  },
} as const;

function lockPath(): string {
  return join(mkdtempSync(join(tmpdir(), 'petstore-lock-')), 'journal.lock');
}

describe('tryLock', () => {
  it('is taken by exactly one of any number of takers, whatever a dead owner left', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 2, max: 10 }),
        fc.constantFrom(...(Object.keys(leftovers) as (keyof typeof leftovers)[])),
        async (takers, left) => {
          const path = lockPath();
          leftovers[left](path);
          const attempts: LockAttempt[] = await Promise.all(
            Array.from({ length: takers }, () => tryLock(path)),
          );
          const taken = attempts.filter((attempt) => attempt.taken);
          expect(taken).toHaveLength(1);
          for (const busy of attempts.filter((attempt) => !attempt.taken)) {
            expect(busy.owner).toEqual({ pid: process.pid, host: hostname() });
          }
          await taken[0]!.release();
          // Released: nothing is left beside it, and the next taker takes it at once.
          expect(readdirSync(join(path, '..'))).toEqual([]);
          const next = await tryLock(path);
          expect(next.taken).toBe(true);
          if (next.taken) await next.release();
        },
      ),
      { numRuns: 40 },
    );
  });

  it('is not taken while its owner runs, on this machine or another', async () => {
    const path = lockPath();
    writeFileSync(path, JSON.stringify({ pid: process.pid, host: hostname(), token: 't1' }));
    expect(await tryLock(path)).toEqual({
      taken: false,
      owner: { pid: process.pid, host: hostname() },
    });
    writeFileSync(path, JSON.stringify({ pid: 12345, host: 'elsewhere.example', token: 't2' }));
    expect(await tryLock(path)).toMatchObject({
      taken: false,
      owner: { host: 'elsewhere.example' },
    });
  });

  it('takes over a lock whose pid now belongs to a process started later', async () => {
    const path = lockPath();
    // This process's pid, but recorded with another start time: a reused pid.
    writeFileSync(
      path,
      JSON.stringify({ pid: process.pid, host: hostname(), token: 't3', started: 1 }),
    );
    const attempt = await tryLock(path);
    expect(attempt.taken).toBe(existsSync('/proc/self/stat'));
    if (attempt.taken) await attempt.release();
  });

  it('releases only its own lock, once', async () => {
    const path = lockPath();
    const first = await tryLock(path);
    if (!first.taken) throw new Error('not taken');
    await first.release();
    const second = await tryLock(path);
    expect(second.taken).toBe(true);
    // The first owner's release again must not remove the second owner's lock.
    await first.release();
    expect(existsSync(path)).toBe(true);
    if (second.taken) await second.release();
    expect(existsSync(path)).toBe(false);
  });
});

describe('lockWithin', () => {
  it('waits for a held lock to be released', async () => {
    const path = lockPath();
    const held = await tryLock(path);
    if (!held.taken) throw new Error('not taken');
    setTimeout(() => void held.release(), 100);
    const waited = await lockWithin(path, 5_000);
    expect(waited.taken).toBe(true);
    if (waited.taken) await waited.release();
  });

  it('gives up after the time given, naming the owner', async () => {
    const path = lockPath();
    const held = await tryLock(path);
    const started = Date.now();
    expect(await lockWithin(path, 150)).toMatchObject({ taken: false });
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    if (held.taken) await held.release();
  });
});
