import type { IO, Output } from './io.js';

/** Back to the start of the line, and erase it: what a status line is drawn and cleared with. */
const ERASE_LINE = '\r\u001b[2K';

/**
 * An IO with one status line on stderr (a progress line): drawn in place, and cleared before
 * anything else is written to stderr, so a message never lands in the middle of it. Its text
 * is the caller's own (counts and rates), drawn on the stream under the sanitising net, which
 * would strip the carriage return and erase sequence it needs.
 */
export function withStatusLine(io: IO): IO {
  let visible = false;
  let stderr: Output | undefined;
  const raw = () => io.stderr;
  const clear = () => {
    if (!visible) return;
    visible = false;
    raw().write(ERASE_LINE);
  };
  return Object.defineProperties({} as IO, {
    ...Object.getOwnPropertyDescriptors(io),
    stderr: {
      get: () =>
        (stderr ??= {
          write: (text: string) => {
            clear();
            return raw().write(text);
          },
          writeSettled: (text: string) => {
            clear();
            return raw().writeSettled(text);
          },
        }),
      enumerable: true,
    },
    setStatus: {
      value: (text: string | undefined) => {
        if (text === undefined) clear();
        else {
          raw().write(`${ERASE_LINE}${text}`);
          visible = true;
        }
      },
      enumerable: true,
    },
  });
}
