import confirm from '@inquirer/confirm';
import input from '@inquirer/input';
import select from '@inquirer/select';
import { InterruptedError, UsageError } from '../core/errors.js';
import type { IO } from '../core/io.js';
import { holdRaw } from '../core/terminal-mode.js';
import { pasteAsOneKey } from './paste-keys.js';

/**
 * Questions at the terminal for values a command was not given (gh pr create asks the same
 * way), drawn on stderr: stdout stays data. Loaded only when a question is asked, so no other
 * run pays for the prompt library. Ctrl-C or Ctrl-D at a question ends the run (exit 130)
 * before anything is sent; a signal that ends the process gives the terminal back first.
 */

/** What a prompt library's promise becomes when the person leaves it. */
function leftThePrompt(nothing: string): InterruptedError {
  return new InterruptedError(`interrupted at a question; ${nothing}`);
}

type Cancellable<T> = Promise<T> & { cancel: () => void };

async function asked<T>(
  io: IO,
  prompt: (context: object) => Cancellable<T>,
  nothing = 'nothing was sent',
): Promise<T> {
  const terminal = io.terminal;
  if (!terminal) throw new UsageError('there is no terminal to ask on');
  const { input: stdin, output } = terminal;
  const release = holdRaw(stdin);
  const keys = pasteAsOneKey(stdin);
  const pending = prompt({ input: keys, output, clearPromptOnDone: false });
  // Ctrl-D (end of input at an empty line) leaves the question too; readline alone would end
  // the prompt without an answer, and the run would wait forever.
  const onData = (chunk: Buffer | string) => {
    if (String(chunk).includes('\u0004')) pending.cancel();
  };
  const onEnd = () => pending.cancel();
  stdin.on('data', onData);
  // After every key that came before it.
  keys.once('end', onEnd);
  try {
    return await pending;
  } catch (error) {
    const name = (error as Error).name;
    if (name === 'ExitPromptError' || name === 'CancelPromptError' || name === 'AbortPromptError') {
      throw leftThePrompt(nothing);
    }
    throw error;
  } finally {
    stdin.off('data', onData);
    keys.off('end', onEnd);
    keys.detach();
    release();
    stdin.pause();
  }
}

/** A line of text; `check` returns what is wrong with an answer, or undefined. */
export function askText(
  io: IO,
  question: { message: string; check?: (answer: string) => string | undefined },
): Promise<string> {
  const { check } = question;
  return asked(
    io,
    (context) =>
      input(
        {
          message: question.message,
          // Empty answers meet the question's own check, said in its own words.
          required: false,
          // Marked as it is typed; said on Enter: the answer is taken only once it is good.
          transformer: (value, { isFinal }) => {
            const problem = isFinal || value === '' ? undefined : check?.(value);
            return problem ? `${value}  ✗` : value;
          },
          validate: (value) => check?.(value) ?? true,
        },
        context,
      ) as Cancellable<string>,
  );
}

/** One of the choices; `undefined` stands for none. */
export function askChoice<Value extends string>(
  io: IO,
  question: { message: string; choices: readonly { name: string; value: Value | undefined }[] },
): Promise<Value | undefined> {
  const none = '\u0000none';
  return asked(
    io,
    (context) =>
      select(
        {
          message: question.message,
          choices: question.choices.map(({ name, value }) => ({ name, value: value ?? none })),
        },
        context,
      ) as Cancellable<string>,
  ).then((chosen) => (chosen === none ? undefined : (chosen as Value)));
}

/** Yes or no (no unless answered yes); `nothing` says what is left undone when left. */
export function askYesNo(io: IO, message: string, nothing: string): Promise<boolean> {
  return asked(
    io,
    (context) => confirm({ message, default: false }, context) as Cancellable<boolean>,
    nothing,
  );
}
