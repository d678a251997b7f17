import type { IO, Output } from './io.js';

/** Shows that a key exists and which one, never the key: the last four characters only. */
export function maskKey(key: string): string {
  return `****${key.slice(-4)}`;
}

/**
 * Keys shorter than this are not searched for in output: they could not be told apart from
 * ordinary words, and replacing them would garble the text. No real API key is this short.
 */
export const MIN_REDACTED_LENGTH = 6;

/**
 * Every secret the run has seen, and the means to keep them out of any text. Whatever the
 * source (a service echoing a key in an error, a verbose log, a table cell), a secret reaching
 * stdout or stderr through a redacting stream comes out masked.
 */
export class SecretRedactor {
  /** Each form a secret can take in text (as is, JSON-escaped, percent-encoded) -> its mask. */
  private readonly forms = new Map<string, string>();
  /** The forms, longest first, so a secret that contains another is masked whole. */
  private ordered: string[] = [];

  add(secret: string | undefined): void {
    if (secret === undefined || secret.length < MIN_REDACTED_LENGTH) return;
    const mask = maskKey(secret);
    for (const form of [secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret)]) {
      this.forms.set(form, mask);
    }
    this.ordered = [...this.forms.keys()].sort((a, b) => b.length - a.length);
  }

  redact(text: string): string {
    let result = text;
    for (const form of this.ordered) {
      if (result.includes(form)) result = result.replaceAll(form, this.forms.get(form)!);
    }
    return result;
  }
}

function redacting(output: Output, redactor: SecretRedactor): Output {
  return { write: (text: string) => output.write(redactor.redact(text)) };
}

/** The same streams, with every secret the redactor knows masked in what is written. */
export function redactingIO(io: IO, redactor: SecretRedactor): IO {
  // Copied by descriptor, not spread: a spread would read `stdin`, which the process's IO
  // makes only when a command reads it.
  return Object.defineProperties({} as IO, {
    ...Object.getOwnPropertyDescriptors(io),
    stdout: { value: redacting(io.stdout, redactor), enumerable: true },
    stderr: { value: redacting(io.stderr, redactor), enumerable: true },
  });
}
