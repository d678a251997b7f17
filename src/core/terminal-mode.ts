import { spawn, spawnSync } from 'node:child_process';
import { readlinkSync, writeSync } from 'node:fs';

/**
 * A terminal left in raw mode after its program ends shows nothing typed and ignores Enter's
 * line ending: the person must type `reset` blind. Node puts it back itself on a normal exit
 * and on SIGINT and SIGTERM, but not when another signal ends the process. While a prompt
 * holds the terminal raw, two things give it back, whatever ends the process:
 *
 * - in the process, each catchable signal whose default ends it restores the terminal first,
 *   then ends the process as that signal would;
 * - a guardian beside it (a small shell, in a session of its own) waits on a pipe from the
 *   process and, when the pipe closes without a word (the process died, however: SIGKILL,
 *   SIGBUS, SIGABRT), sets the terminal back as it found it (`stty -F DEVICE SETTINGS`).
 */

/**
 * The signals that end a process by default and that a program may catch: not SIGSEGV, SIGBUS,
 * SIGFPE and SIGILL, whose real faults leave JavaScript no safe way to run (Node says so), nor
 * SIGUSR1 (Node's debugger); the guardian covers those, and SIGKILL.
 */
const ENDING_SIGNALS = [
  'SIGHUP',
  'SIGINT',
  'SIGQUIT',
  'SIGTERM',
  'SIGUSR2',
  'SIGALRM',
  'SIGXCPU',
  'SIGXFSZ',
  'SIGABRT',
  'SIGTRAP',
  'SIGSYS',
  'SIGVTALRM',
  'SIGPROF',
  'SIGPWR',
  'SIGSTKFLT',
] as const;

interface RawModeStream {
  setRawMode?: (mode: boolean) => unknown;
  isTTY?: boolean;
}

/** Waits for "ok" on its stdin; an end without it means its process died: restore. */
const GUARDIAN = `trap '' HUP INT QUIT TERM; IFS= read -r word; [ "$word" = ok ] || stty -F "$1" "$2"`;

/**
 * A guardian for the terminal on stdin, set to give it back as it is now; undefined where
 * there is none to be had (no /proc, no stty): the signal handlers still do their part.
 */
function startGuardian(): (() => void) | undefined {
  try {
    const device = readlinkSync('/proc/self/fd/0');
    if (!device.startsWith('/dev/')) return undefined;
    const saved = spawnSync('stty', ['-F', device, '-g'], { encoding: 'utf8', timeout: 2000 });
    const settings = saved.stdout.trim();
    if (saved.status !== 0 || settings === '') return undefined;
    const guardian = spawn('sh', ['-c', GUARDIAN, 'sh', device, settings], {
      detached: true,
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    guardian.on('error', () => undefined);
    guardian.stdin.on('error', () => undefined);
    guardian.unref();
    const pipe = guardian.stdin as unknown as { unref?: () => void; _handle?: { fd?: number } };
    pipe.unref?.();
    // Said at once, even from an 'exit' handler, where no asynchronous write is ever done.
    return () => {
      const fd = pipe._handle?.fd;
      try {
        if (fd !== undefined && fd >= 0) writeSync(fd, 'ok\n');
      } catch {
        // A guardian gone already restores nothing more.
      }
      guardian.stdin.end();
    };
  } catch {
    return undefined;
  }
}

/**
 * Puts the stream's terminal in raw mode (no echo, each key as typed) until the returned
 * function is called, or until a signal or an exit ends the process first. A stream that is
 * no terminal is left as it is.
 */
export function holdRaw(stream: NodeJS.ReadableStream): () => void {
  const terminal = stream as NodeJS.ReadableStream & RawModeStream;
  if (typeof terminal.setRawMode !== 'function') return () => undefined;
  let held = true;
  const dismissGuardian = startGuardian();
  const restore = () => {
    if (!held) return;
    held = false;
    terminal.setRawMode?.(false);
    dismissGuardian?.();
    process.off('exit', restore);
    for (const signal of ENDING_SIGNALS) process.off(signal, onSignal);
  };
  const onSignal = (signal: NodeJS.Signals) => {
    restore();
    // No handler of ours is left: the signal's default (or Node's own handler) ends it now.
    process.kill(process.pid, signal);
  };
  // Caught before the terminal is raw: a signal in between would leave it so.
  process.on('exit', restore);
  for (const signal of ENDING_SIGNALS) process.on(signal, onSignal);
  terminal.setRawMode(true);
  return restore;
}
