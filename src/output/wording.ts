import {
  wordHint,
  type Hint,
  type OptionName,
  type ResumeRef,
  type Wording,
} from '../core/phrase.js';

/** `batchId` -> `--batch-id`: every option a hint names is the flag of that name. */
export function flagOf(name: OptionName): string {
  return `--${name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;
}

function withValue(flag: string, value: string | undefined): string {
  return value === undefined || value === '' ? flag : `${flag} ${value}`;
}

/** The command line's words: flags, `petstore NOUN VERB ...` and the resume command. */
export const COMMAND_LINE_WORDING: Wording = {
  option: (name, value) => withValue(flagOf(name), value),
  command: (name, withOptions) =>
    ['petstore', name]
      .concat(
        Object.entries(withOptions).map(([option, value]) =>
          withValue(flagOf(option as OptionName), value),
        ),
      )
      .join(' '),
  resume: (ref: ResumeRef) =>
    [
      ref.words,
      ref.retryUnknown ? '--retry-unknown' : '',
      ref.retryFailed ? '--retry-failed' : '',
      ref.printAll ? '--print-all' : '',
    ]
      .filter(Boolean)
      .join(' '),
};

/** A hint as the command line says it. */
export function commandLineHint(hint: Hint): string;
export function commandLineHint(hint: Hint | undefined): string | undefined;
export function commandLineHint(hint: Hint | undefined): string | undefined {
  // Every reference has command-line words.
  return hint === undefined ? undefined : (wordHint(hint, COMMAND_LINE_WORDING) ?? '');
}
