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
  'SIGIO',
  'SIGPOLL',
] as const;

/** The signals that stop a process (Ctrl-Z, a background read or write) and may be caught. */
const STOPPING_SIGNALS = ['SIGTSTP', 'SIGTTIN', 'SIGTTOU'] as const;

/** The raw terminal held for a question, and how to let it go. */
export interface RawHold {
  /** Gives the terminal back for good. */
  (): void;
  /**
   * Stops the process as Ctrl-Z does (a key, in raw mode, sends no signal): the terminal given
   * back first, raw again when the shell resumes it (fg), then the question redrawn.
   */
  suspend(): void;
}

interface RawModeStream {
  setRawMode?: (mode: boolean) => unknown;
  isTTY?: boolean;
}

/**
 * Puts the stream's terminal in raw mode (no echo, each key as typed) until the returned
 * function is called, or until a signal or an exit ends the process first. Stopped (Ctrl-Z,
 * SIGTSTP), the process gives the terminal back to the shell, and takes it raw again when it
 * is resumed (fg). A stream that is no terminal is left as it is.
 */
export function holdRaw(
  stream: NodeJS.ReadableStream,
  /** Draws the question again once the process is resumed. */
  redraw: () => void = () => undefined,
): RawHold {
  const terminal = stream as NodeJS.ReadableStream & RawModeStream;
  if (typeof terminal.setRawMode !== 'function') {
    return Object.assign(() => undefined, { suspend: () => undefined });
  }
  let held = true;
  const restore = () => {
    if (!held) return;
    held = false;
    terminal.setRawMode?.(false);
    process.off('exit', restore);
    for (const signal of ENDING_SIGNALS) process.off(signal, onSignal);
    for (const signal of STOPPING_SIGNALS) process.off(signal, onStop);
    process.off('SIGCONT', onContinue);
  };
  const onSignal = (signal: NodeJS.Signals) => {
    restore();
    // No handler of ours is left: the signal's default (or Node's own handler) ends it now.
    process.kill(process.pid, signal);
  };
  const suspend = () => {
    if (!held) return;
    terminal.setRawMode?.(false);
    // SIGSTOP cannot be caught: the process stops here until the shell continues it.
    process.kill(process.pid, 'SIGSTOP');
  };
  const onStop = () => suspend();
  const onContinue = () => {
    if (!held) return;
    terminal.setRawMode?.(true);
    redraw();
    // Node's readline (a prompt library's) pauses its input on SIGCONT, after this handler,
    // and waits for its owner to resume it: with nothing else to wait on, the process would
    // end at the question. Resumed once every SIGCONT handler has run.
    setImmediate(() => {
      if (held) stream.resume();
    });
  };
  // Caught before the terminal is raw: a signal in between would leave it so.
  process.on('exit', restore);
  for (const signal of ENDING_SIGNALS) process.on(signal, onSignal);
  for (const signal of STOPPING_SIGNALS) process.on(signal, onStop);
  process.on('SIGCONT', onContinue);
  terminal.setRawMode(true);
  return Object.assign(restore, { suspend });
}
