import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  chownSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { besideLockPath, MACHINE_LOCKS } from '../../src/bulk/journal-lock-places.js';
import { lockJournal, type Unlock } from '../../src/bulk/journal-lock.js';
import { tryLock } from '../../src/core/kernel-lock.js';

function journalIn(folder = mkdtempSync(join(tmpdir(), 'petstore-jlock-')), name = 'run.jsonl') {
  const journal = join(folder, name);
  writeFileSync(journal, '');
  return { journal, locks: join(folder, 'locks') };
}

const machineLockOf = (journal: string) => {
  const { dev, ino } = statSync(journal);
  return join(MACHINE_LOCKS, `journal-${dev}-${ino}.lock`);
};

const held: Unlock[] = [];
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const unlock of held.splice(0)) await unlock();
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

const isRoot = process.getuid?.() === 0;

describe('the locks of a journal', () => {
  it('a run that loses the race names itself as the holder of none of them', async () => {
    const { journal, locks } = journalIn();
    // Another run holds only the lock beside the journal; the others are free to take.
    const beside = await tryLock(`${journal}.lock`);
    if (!beside.taken) throw new Error('the lock beside was not taken');
    held.push(beside.release);
    // One left by an earlier file that had this inode, long deleted.
    rmSync(`${machineLockOf(journal)}.owner`, { force: true });

    await expect(lockJournal(journal, locks)).rejects.toThrow(/in use by another petstore run/);
    const ownerFiles = readdirSync(locks).filter((name) => name.endsWith('.owner'));
    expect(ownerFiles).toEqual([]);
    expect(existsSync(`${machineLockOf(journal)}.owner`)).toBe(false);
  });

  it('the winner names itself beside every lock file it holds', async () => {
    const { journal, locks } = journalIn();
    held.push(await lockJournal(journal, locks));
    expect(existsSync(`${journal}.lock.owner`)).toBe(true);
    expect(readdirSync(locks).filter((name) => name.endsWith('.owner'))).toHaveLength(1);
  });

  it('a journal whose name is too long for NAME.lock.owner is locked by a short name beside it', async () => {
    const { journal, locks } = journalIn(undefined, `${'j'.repeat(248)}.jsonl`);
    const unlock = await lockJournal(journal, locks);
    const lockPath = besideLockPath(journal);
    expect(dirname(lockPath)).toBe(dirname(journal));
    expect(basename(lockPath)).toMatch(/^\.petstore-[0-9a-f]{32}\.lock$/);
    await expect(lockJournal(journal, locks)).rejects.toThrow(/in use/);
    await unlock();
    held.push(await lockJournal(journal, locks));
  });

  it.runIf(isRoot)(
    "a lock in the machine's folder held by a user who does not own the journal does not keep it",
    async () => {
      const { journal, locks } = journalIn();
      const machineLock = machineLockOf(journal);
      const stranger = await tryLock(machineLock, { shared: true });
      if (!stranger.taken) throw new Error('the machine lock was not taken');
      held.push(stranger.release);

      chownSync(machineLock, 4242, 4242); // another user's lock file
      held.push(await lockJournal(journal, locks));
      await held.pop()?.();

      chownSync(machineLock, statSync(journal).uid, statSync(journal).gid); // the owner's own
      await expect(lockJournal(journal, locks)).rejects.toThrow(/petstore-locks/);
    },
  );

  /** A process in a mount namespace of its own, with a journal only it sees at /mnt. */
  const ownMounts =
    isRoot && spawnSync('unshare', ['-m', '--propagation', 'private', 'true']).status === 0;

  it.runIf(ownMounts)(
    "a journal reached through another process's root is locked there, not at the path it names in that root",
    async () => {
      const child = spawn(
        'unshare',
        [
          '-m',
          '--propagation',
          'private',
          'sh',
          '-c',
          'mount -t tmpfs none /mnt && : > /mnt/run.jsonl && echo ready && exec sleep 60',
        ],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      children.push(child);
      await new Promise<void>((resolve, reject) => {
        child.stdout.once('data', () => resolve());
        child.once('exit', (code) => reject(new Error(`unshare ended (${code})`)));
      });
      const locks = mkdtempSync(join(tmpdir(), 'petstore-jlock-'));
      // One there, and one not made yet: each is locked, and only there.
      for (const name of ['run.jsonl', 'new.jsonl']) {
        const journal = `/proc/${child.pid}/root/mnt/${name}`;
        held.push(await lockJournal(journal, locks));
        await expect(lockJournal(journal, locks)).rejects.toThrow(/in use/);
        expect(existsSync(`/mnt/${name}.lock`)).toBe(false);
      }
    },
  );
});
