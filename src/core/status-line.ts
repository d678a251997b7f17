import type { IO, Output } from './io.js';

/** Back to the start of the line, and erase it: what a status line is drawn and cleared with. */
const ERASE_LINE = '\r\u001b[2K';

/**
 * The text cut to fit a terminal line: a line that wraps would leave its first rows behind
 * when erased (the erase sequence clears the row the cursor is on).
 */
function fitted(text: string, columns: number | undefined): string {
  if (columns === undefined) return text;
  const room = Math.max(1, columns - 1);
  const characters = Array.from(text);
  return characters.length <= room ? text : `${characters.slice(0, room - 1).join('')}…`;
}

/** Output that clears the status line before writing, and draws it again after a whole line. */
function clearingFirst(output: () => Output, clear: () => void, redraw: () => void): Output {
  const after = <T>(text: string, written: T): T => {
    if (text.endsWith('\n')) redraw();
    return written;
  };
  return {
    write: (text: string) => {
      clear();
      return after(text, output().write(text));
    },
    writeSettled: (text: string) => {
      clear();
      return after(text, output().writeSettled(text));
    },
  };
}

/**
 * An IO with one status line on stderr (a progress line): drawn in place, cut to the
 * terminal's width, and kept below everything else: cleared before anything else is written
 * to stderr, or to stdout when that is a terminal too (the same screen), so nothing lands in
 * the middle of it, and drawn again after it. Its text is the caller's own (counts and rates),
 * drawn on the stream under the sanitising net, which would strip the carriage return and
 * erase sequence it needs.
 */
export function withStatusLine(io: IO): IO {
  let visible = false;
  /** The line's text while it is up, even when something else was just written. */
  let current: string | undefined;
  let stderr: Output | undefined;
  const raw = () => io.stderr;
  const clear = () => {
    if (!visible) return;
    visible = false;
    raw().write(ERASE_LINE);
  };
  const draw = () => {
    if (current === undefined) return;
    raw().write(`${ERASE_LINE}${fitted(current, io.stderrColumns)}`);
    visible = true;
  };
  return Object.defineProperties({} as IO, {
    ...Object.getOwnPropertyDescriptors(io),
    ...(io.stdoutIsTTY && {
      stdout: { value: clearingFirst(() => io.stdout, clear, draw), enumerable: true },
    }),
    stderr: {
      get: () => (stderr ??= clearingFirst(raw, clear, draw)),
      enumerable: true,
    },
    setStatus: {
      value: (text: string | undefined) => {
        current = text;
        if (text === undefined) clear();
        else draw();
      },
      enumerable: true,
    },
  });
}
