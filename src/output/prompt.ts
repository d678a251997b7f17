import { createInterface } from 'node:readline/promises';
import { InterruptedError, UsageError } from '../core/errors.js';
import type { IO } from '../core/io.js';
import { holdRaw } from '../core/terminal-mode.js';

/** Asks a yes/no question on the terminal; only "y" or "yes" is yes. */
export async function confirm(io: IO, question: string): Promise<boolean> {
  const readline = createInterface({
    input: io.stdin,
    output: io.stderr as unknown as NodeJS.WritableStream,
    terminal: false,
  });
  // End of input (Ctrl-D) without an answer is a no.
  const closed = new Promise<string>((resolve) => readline.once('close', () => resolve('')));
  try {
    const answer = await Promise.race([readline.question(`${question} [y/N] `), closed]);
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    readline.close();
  }
}

/** Reads a secret from the terminal without echoing it. */
export function readHidden(io: IO, prompt: string): Promise<string> {
  const stdin = io.stdin;
  // Given back on every way out, a signal that ends the process included. Raw before the
  // prompt shows: what is typed once it shows is never echoed.
  const release = holdRaw(stdin);
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
        if (char === '\r' || char === '\n' || char === '\u0004') {
          finish();
          resolve(value);
          return;
        }
        if (char === '\u0003') {
          finish();
          reject(new InterruptedError('interrupted'));
          return;
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
