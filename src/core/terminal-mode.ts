/**
 * A terminal left in raw mode after its program ends shows nothing typed and ignores Enter's
 * line ending: the person must type `reset` blind. Node puts it back itself on a normal exit
 * and on SIGINT and SIGTERM, but not when another signal ends the process (SIGHUP when the
 * terminal window closes, SIGQUIT from Ctrl-\ or a service manager). While a prompt holds the
 * terminal raw, each signal whose default ends the process restores it first, then ends the
 * process as that signal would.
 */

/** The signals that end a process by default and that a program may catch. SIGPROF and SIGVTALRM are left to profilers; SIGUSR1 is Node's debugger's. */
const ENDING_SIGNALS = [
  'SIGHUP',
  'SIGINT',
  'SIGQUIT',
  'SIGTERM',
  'SIGUSR2',
  'SIGALRM',
  'SIGXCPU',
  'SIGXFSZ',
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
