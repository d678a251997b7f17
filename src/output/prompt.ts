import { InterruptedError, UsageError } from '../core/errors.js';
import type { IO } from '../core/io.js';
import { holdRaw } from '../core/terminal-mode.js';

/** Reads a secret from the terminal without echoing it. */
export function readHidden(io: IO, prompt: string): Promise<string> {
  const stdin = io.stdin;
  // Given back on every way out, a signal that ends the process included. Raw before the
  // prompt shows: what is typed once it shows is never echoed.
  const release = holdRaw(stdin, () => io.stderr.write(`\n${prompt}`));
  io.stderr.write(prompt);
  stdin.setEncoding('utf8');
  stdin.resume();
  return new Promise((resolve, reject) => {
    let value = '';
    const finish = () => {
      release();
      stdin.pause();
      stdin.off('data', onData);
      io.stderr.write('\n');
    };
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === '\r' || char === '\n') {
          finish();
          resolve(value);
          return;
        }
        // Ctrl-C or Ctrl-D: the person left the question, as at every other question.
        if (char === '\u0003' || char === '\u0004') {
          finish();
          reject(new InterruptedError('interrupted at a question; nothing was stored'));
          return;
        }
        // Ctrl-Z: stopped as in any other program; after fg, the question again.
        if (char === '\u001a') {
          release.suspend();
          continue;
        }
        if (char === '\u007f' || char === '\b') value = value.slice(0, -1);
        else value += char;
      }
    };
    stdin.on('data', onData);
  });
}

/** The first line of a stream (e.g. a key piped in), trimmed. */
export async function readFirstLine(stream: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of stream) {
    text += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
    if (text.includes('\n')) break;
    if (text.length > 64 * 1024) throw new UsageError('the first line of input is too long');
  }
  return (text.split(/\r?\n/)[0] ?? '').trim();
}
