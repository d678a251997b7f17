/**
 * A terminal left in raw mode after its program ends shows nothing typed and ignores Enter's
 * line ending: the person must type `reset` blind. Node puts it back itself on a normal exit
 * and on SIGINT and SIGTERM, but not when another signal ends the process. While a prompt
 * holds the terminal raw, each catchable signal whose default ends the process restores the
 * terminal first, then ends the process as that signal would.
 *
 * What no process can do for itself: SIGKILL and a real fault (SIGSEGV, SIGBUS, SIGFPE, SIGILL)
 * end it with no code run. An interactive bash or zsh puts back its own terminal settings when
 * a program it ran is killed by a signal; elsewhere the terminal stays raw until `stty sane` (or
 * `reset`). No helper program watches over it: that took `sh` and `stty -F`, Linux's alone.
 */

/**
 * The signals that end a process by default and that a program may catch: not SIGSEGV, SIGBUS,
 * SIGFPE and SIGILL, whose real faults leave JavaScript no safe way to run (Node says so), nor
 * SIGUSR1 (Node's debugger).
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

/**
 * Puts the stream's terminal in raw mode (no echo, each key as typed) until the returned
 * function is called, or until a signal or an exit ends the process first. A stream that is
 * no terminal is left as it is.
 */
export function holdRaw(stream: NodeJS.ReadableStream): () => void {
  const terminal = stream as NodeJS.ReadableStream & RawModeStream;
  if (typeof terminal.setRawMode !== 'function') return () => undefined;
  let held = true;
  const restore = () => {
    if (!held) return;
    held = false;
    terminal.setRawMode?.(false);
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
