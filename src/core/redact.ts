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

/** Characters that sanitising removes later: hidden between a key's characters, they must not hide it. */
const HIDDEN = '[\\p{Cc}\\p{Cf}]*';
const SYNTAX = /[\\^$.*+?()[\]{}|/]/g;

/** A pattern for one form of a secret: any letter case, invisible characters allowed between. */
function formPattern(form: string): string {
  return Array.from(form, (char) => char.replace(SYNTAX, '\\$&')).join(HIDDEN);
}

/**
 * Each form a secret can take in text, with the mask that replaces it in that form, so that a
 * masked JSON string or URL stays valid: as is, JSON-escaped, percent-encoded.
 */
function forms(secret: string): [form: string, mask: string][] {
  const mask = maskKey(secret);
  const json = (text: string) => JSON.stringify(text).slice(1, -1);
  return [
    [secret, mask],
    [json(secret), json(mask)],
    [encodeURIComponent(secret), encodeURIComponent(mask)],
  ];
}

/**
 * Every secret the run has seen, and the means to keep them out of any text. Whatever the
 * source (a service echoing a key in an error, a verbose log, a table cell), a secret reaching
 * stdout or stderr through a redacting stream comes out masked. A service may also change it on
 * the way: letter case, invisible characters inside it; those are masked too. The client masks
 * responses as they arrive as well, before any text is cut short (an excerpt, a table cell),
 * since the start of a key cut off is no longer the key.
 */
export class SecretRedactor {
  /** form -> mask, longest form first, so a secret that contains another is masked whole. */
  private readonly masks = new Map<string, string>();
  private pattern: RegExp | undefined;
  private ordered: string[] = [];

  add(secret: string | undefined): void {
    if (secret === undefined || secret.length < MIN_REDACTED_LENGTH) return;
    let added = false;
    for (const [form, mask] of forms(secret)) {
      if (this.masks.has(form)) continue;
      this.masks.set(form, mask);
      added = true;
    }
    if (!added) return;
    this.ordered = [...this.masks.keys()].sort((a, b) => b.length - a.length);
    this.pattern = new RegExp(
      this.ordered.map((form) => `(${formPattern(form)})`).join('|'),
      'giu',
    );
  }

  redact(text: string): string {
    if (this.pattern === undefined) return text;
    return text.replace(this.pattern, (...groups: unknown[]) => {
      const index = groups.findIndex((group, at) => at > 0 && group !== undefined);
      return this.masks.get(this.ordered[index - 1]!)!;
    });
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
