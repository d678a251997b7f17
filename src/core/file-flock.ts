import { spawn } from 'node:child_process';

/**
 * A lock on a file itself, not on a lock file beside it: flock(2) on the file's inode, so
 * every name of the file (a hard link, a path under another HOME, a bind mount) meets the
 * same lock and no folder of lock files has to be shared. It is held by a small helper
 * process (util-linux `flock`), not by this one: an fcntl lock here would be dropped the
 * first time this process closed any descriptor of the file, and the journal writer opens and
 * closes it. The helper reads from a pipe whose other end only this process holds: when this
 * process ends, however it ends, the pipe closes and the helper, and the lock, go with it.
 * It runs in a session of its own, so a signal to this process's group (Ctrl-C, Ctrl-Z at a
 * terminal) does not end or stop it before this process has let go of the journal.
 */

export type FileFlockAttempt =
  | { taken: true; release: () => Promise<void>; announce: () => void }
  | { taken: false }
  /** No `flock` here (not Linux, util-linux missing) or it could not open the file. */
  | undefined;

/** The helper's exit code when the file is locked by another. */
const HELD_ELSEWHERE = 75;
/**
 * How long the helper may take to answer: opening a file can block (a FIFO with no writer, a
 * hung network mount). Past it, the helper is ended and this lock skipped.
 */
const ANSWER_WITHIN_MS = 5000;

export function flockFile(path: string): Promise<FileFlockAttempt> {
  return new Promise((resolve) => {
    let settled = false;
    const settle = (attempt: FileFlockAttempt) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(attempt);
    };
    const child = spawn(
      'flock',
      [
        '--nonblock',
        '--conflict-exit-code',
        String(HELD_ELSEWHERE),
        path,
        'sh',
        '-c',
        // Says it holds the lock, then waits for the pipe from this process to close.
        'echo held; exec cat >/dev/null',
      ],
      { stdio: ['pipe', 'pipe', 'ignore'], detached: true },
    );
    const exited = new Promise<void>((done) => child.once('close', () => done()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      settle(undefined);
    }, ANSWER_WITHIN_MS);
    child.once('error', () => settle(undefined));
    child.once('exit', (code) => settle(code === HELD_ELSEWHERE ? { taken: false } : undefined));
    child.stdout.once('data', () => {
      // Held: the helper must not keep this process alive, nor outlive it.
      child.unref();
      child.stdout.destroy();
      (child.stdin as unknown as { unref?: () => void }).unref?.();
      settle({
        taken: true,
        // The kernel's lock on the file names no owner: the lock files beside it do.
        announce: () => undefined,
        release: async () => {
          // Waited for, so the lock is free when release resolves.
          child.ref();
          child.stdin.end();
          await exited;
        },
      });
    });
  });
}
