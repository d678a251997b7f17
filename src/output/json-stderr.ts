import { stringifyJson } from '../core/json.js';
import type { IO, Output } from '../core/io.js';

/**
 * Errors as JSON (--error-format json, or -o json into a pipe): every line on stderr is one
 * JSON object, so a script reads stderr with one parser, whatever it holds. The run's own
 * warnings and notes are written as objects (stderrLine); any other line (a verbose log, a
 * lower layer's note) is carried as {"note": line}, never left as text among the objects.
 */

/** One stderr line of a kind: an object in JSON mode, else text ("warning: ..." for a warning). */
export function stderrLine(kind: 'warning' | 'note', message: string, json: boolean): string {
  if (json) return `${stringifyJson({ [kind]: message.replace(/^note: /, '') })}\n`;
  return kind === 'warning' ? `warning: ${message}\n` : `${message}\n`;
}

function isJsonObjectLine(line: string): boolean {
  if (!line.startsWith('{')) return false;
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}

/** The text with each line that is not a JSON object carried as {"note": line}. */
export function asJsonLines(text: string): string {
  const lines = text.split('\n');
  // Text ending in a line break leaves an empty last piece: no line of its own.
  if (lines.at(-1) === '') lines.pop();
  return lines
    .map((line) => (line === '' || isJsonObjectLine(line) ? line : stringifyJson({ note: line })))
    .filter((line) => line !== '')
    .map((line) => `${line}\n`)
    .join('');
}

function framing(output: Output, active: () => boolean): Output {
  const frame = (text: string) => (active() ? asJsonLines(text) : text);
  // The count is of the caller's bytes: all of them when the framed text left whole.
  const counted = (text: string, framed: string, written: number) =>
    written === Buffer.byteLength(framed) ? Buffer.byteLength(text) : 0;
  return {
    write: (text) => {
      const framed = frame(text);
      return counted(text, framed, output.write(framed));
    },
    writeSettled: async (text) => {
      const framed = frame(text);
      return counted(text, framed, await output.writeSettled(framed));
    },
  };
}

/**
 * The IO with stderr framed as JSON lines while `active()` says so (once the run knows its
 * error format). Not at a terminal: a person reads text there, and a prompt's line is written
 * in parts.
 */
export function jsonStderrIO(io: IO, active: () => boolean): IO {
  let stderr: Output | undefined;
  const on = () => !io.stderrIsTTY && active();
  return Object.defineProperties({} as IO, {
    ...Object.getOwnPropertyDescriptors(io),
    stderr: { get: () => (stderr ??= framing(io.stderr, on)), enumerable: true },
  });
}
