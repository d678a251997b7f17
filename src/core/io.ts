import { fstatSync, writeSync } from 'node:fs';
import { isatty } from 'node:tty';

export interface Output {
  /**
   * Writes the text. Returns how many of its bytes (UTF-8) reached the output: all of them,
   * unless the write failed part way (a full disk), or the output was closed or failed before.
   */
  write(text: string): number;
  /**
   * Writes the text and resolves once it has left this process (the system has it: a file, a
   * pipe's buffer), with how many of its bytes did: all of them, unless the output failed or
   * closed first. Text still queued in the process dies with it if it is killed.
   */
  writeSettled(text: string): Promise<number>;
}

/** Everything a command may touch of the process's streams; tests pass fakes. */
export interface IO {
  stdout: Output;
  stderr: Output;
  stdin: NodeJS.ReadableStream;
  stdoutIsTTY: boolean;
  /**
   * stdout is a pipe or a socket: another program reads it, and may write what it reads to
   * the same terminal as stderr (`| cat`, `| jq`), where a line drawn in place would erase it.
   */
  stdoutIsPipe?: boolean | undefined;
  stderrIsTTY: boolean;
  stdinIsTTY: boolean;
  /** The terminal's width in columns when stdout is a terminal; undefined when piped. */
  stdoutColumns: number | undefined;
  /**
   * The width help is asked for when stdout is no terminal: COLUMNS, as `ls` reads it (the man
   * page is built with it). Tables to a pipe stay as wide as their rows.
   */
  readonly requestedColumns?: number | undefined;
  /**
   * True once the reader of stdout has gone away (`petstore ... | head`): what is written after
   * that is dropped, and a command that produces data should stop producing it.
   */
  stdoutClosed(): boolean;
  /**
   * Why stdout could not be written, when it was not its reader going away: a full disk, an
   * I/O error. The run must then fail, since its output is incomplete. Undefined until then.
   */
  stdoutError(): NodeJS.ErrnoException | undefined;
  /** Resolves once what was written to stdout so far has reached the system, or failed to. */
  stdoutFlushed(): Promise<void>;
  /**
   * What stdout (1) or stderr (2) writes to (a file, a pipe), by device and inode: a file
   * petstore is asked to write may be the same one, which would take the place of the output
   * or be mixed into it. Absent in tests.
   */
  streamTarget?: ((fd: 1 | 2) => { dev: number; ino: number } | undefined) | undefined;
  /**
   * Calls the listener on SIGINT or SIGTERM, instead of the default of ending the process at
   * once, until the returned function is called.
   */
  onSignal(listener: (signal: StopSignal) => void): () => void;
  /**
   * Draws one status line on stderr in place (a progress line), or clears it (undefined);
   * anything else written to stderr clears it first. Absent: no status line (see withStatusLine).
   */
  setStatus?: ((text: string | undefined) => void) | undefined;
  /** The width of the terminal stderr is, when it is one: a status line is cut to fit it. */
  readonly stderrColumns?: number | undefined;
  /**
   * Ends the process as the signal's default would, after a handler (onSignal) has done what
   * it must first (erase a progress line). Absent where there is no process to end (tests).
   */
  raise?: ((signal: StopSignal) => void) | undefined;
  /**
   * The terminal itself, for prompts: stdin, and stderr as the stream it is (a prompt draws
   * with escape sequences that the guarded stderr, which strips them, would not pass). Absent
   * where there is no terminal to draw on (tests give streams of their own).
   */
  readonly terminal?: { input: NodeJS.ReadableStream; output: NodeJS.WritableStream } | undefined;
}

export type StopSignal = 'SIGINT' | 'SIGTERM';
const STOP_SIGNALS: readonly StopSignal[] = ['SIGINT', 'SIGTERM'];

export type Env = Readonly<Record<string, string | undefined>>;

// Node's typings say boolean, but isTTY is undefined on pipes and files.
/** The descriptor is a pipe or a socket (fstat), not a terminal, file or device. */
function isPipe(fd: number): boolean {
  try {
    const info = fstatSync(fd);
    return info.isFIFO() || info.isSocket();
  } catch {
    return false;
  }
}

function isTTY(stream: { isTTY?: boolean | undefined }): boolean {
  return stream.isTTY === true;
}

/** Node's stream for a file (a SyncWriteStream) says "fs"; a pipe "pipe", a terminal "tty". */
function isFileStream(stream: NodeJS.WriteStream): boolean {
  return (stream as { _type?: string })._type === 'fs';
}

/**
 * A process stream that treats a closed reader as normal: the EPIPE that Node would throw as an
 * uncaught error (a stack trace and exit 1) only marks the stream closed, and later writes are
 * dropped. Any other write failure (ENOSPC, EIO) also closes it, and is kept for the run to
 * report once it has finished.
 *
 * A file is written here, not by Node's stream: that stream takes a short write (a disk that
 * fills part way through a line) for a whole one and drops the rest, so a torn line would pass
 * for a written one. Here the rest is written, or its failure known, before write() returns.
 */
function guarded(stream: NodeJS.WriteStream) {
  let closed = false;
  let failure: NodeJS.ErrnoException | undefined;
  const fail = (error: NodeJS.ErrnoException) => {
    if (!closed && error.code !== 'EPIPE') failure = error;
    closed = true;
  };
  stream.on('error', fail);
  const toFile = isFileStream(stream);
  const { fd } = stream as unknown as { fd: number };
  const writeFile = (text: string): number => {
    const bytes = Buffer.from(text);
    let done = 0;
    try {
      while (done < bytes.length) done += writeSync(fd, bytes, done);
    } catch (error) {
      fail(error as NodeJS.ErrnoException);
    }
    return done;
  };
  const write = (text: string): number => {
    if (closed) return 0;
    if (toFile) return writeFile(text);
    stream.write(text);
    // A write that fails at once (a pipe, written synchronously) marks the stream errored now,
    // its 'error' event only later: a caller checking stdoutClosed() right after the write
    // must already know that this text was not written (how much of it was, Node does not say).
    if (stream.errored) {
      fail(stream.errored);
      return 0;
    }
    return Buffer.byteLength(text);
  };
  const writeSettled = (text: string): Promise<number> => {
    if (closed) return Promise.resolve(0);
    if (toFile) return Promise.resolve(writeFile(text));
    const bytes = Buffer.byteLength(text);
    return new Promise((resolve) => {
      // The callback comes once Node handed the text to the system, or failed to (then how
      // much of it went, Node does not say: none is counted).
      stream.write(text, (error) => resolve(error ? 0 : bytes));
      if (stream.errored) fail(stream.errored);
    });
  };
  return {
    output: { write, writeSettled },
    closed: () => closed,
    failure: () => failure,
    // The callback of an empty write comes once every earlier write is done or has failed; the
    // failure's 'error' event follows it within the same turn of the event loop.
    flushed: () =>
      new Promise<void>((resolve) => {
        if (closed || toFile) resolve();
        else stream.write('', () => setImmediate(resolve));
      }),
  };
}

/** A width given as text (COLUMNS): a whole number of 20 or more, else none. */
function wholeColumns(text: string | undefined): number | undefined {
  const columns = Number(text);
  return Number.isInteger(columns) && columns >= 20 ? columns : undefined;
}

export function processIO(): IO {
  const stdout = guarded(process.stdout);
  let stderr: ReturnType<typeof guarded> | undefined;
  return {
    stdout: stdout.output,
    // Made when first written: a pipe's stream costs milliseconds, and --version never uses it.
    get stderr() {
      return (stderr ??= guarded(process.stderr)).output;
    },
    // Made when first used: on a file or /dev/null, process.stdin is a file stream, whose
    // module loads node:fs/promises and readline (about 10 ms) for commands that read nothing.
    get stdin() {
      return process.stdin;
    },
    stdoutIsTTY: isTTY(process.stdout),
    get stdoutIsPipe() {
      return isPipe(1);
    },
    get stderrIsTTY() {
      return isatty(2);
    },
    get stdinIsTTY() {
      return isatty(0);
    },
    stdoutColumns: isTTY(process.stdout) ? process.stdout.columns || undefined : undefined,
    requestedColumns: wholeColumns(process.env.COLUMNS),
    get stderrColumns() {
      return isatty(2) ? process.stderr.columns || undefined : undefined;
    },
    raise(signal) {
      // Every handler of ours is released by now: the signal's default ends the process.
      process.kill(process.pid, signal);
    },
    get terminal() {
      return { input: process.stdin, output: process.stderr };
    },
    stdoutClosed: stdout.closed,
    stdoutError: stdout.failure,
    stdoutFlushed: stdout.flushed,
    streamTarget: (fd) => {
      try {
        const { dev, ino } = fstatSync(fd);
        return { dev, ino };
      } catch {
        return undefined;
      }
    },
    onSignal(listener) {
      // While a command handles signals itself it is their only handler. Others are set aside:
      // conf's atomic writer (when-exit) answers a signal by sending it again to end the process,
      // which would read as a second Ctrl-C. Their clean-up still runs on 'exit', which follows.
      const setAside = STOP_SIGNALS.map((name) => [name, process.rawListeners(name)] as const);
      for (const name of STOP_SIGNALS) {
        process.removeAllListeners(name);
        process.on(name, listener);
      }
      return () => {
        for (const [name, others] of setAside) {
          process.off(name, listener);
          for (const other of others) process.on(name, other as (signal: NodeJS.Signals) => void);
        }
      };
    },
  };
}
