import type { IO, Output } from './io.js';
import { sanitizeText } from './sanitize.js';

/**
 * Shows that a key exists and which one, never the key: the last four characters of a key of
 * 12 or more, two of a key of 8 to 11, none of a shorter one, so a mask never gives away much
 * of a key (nor, for a short one, all of it).
 */
export function maskKey(key: string): string {
  const shown = key.length >= 12 ? 4 : key.length >= 8 ? 2 : 0;
  return `****${shown ? key.slice(-shown) : ''}`;
}

const SYNTAX = /[\\^$.*+?()[\]{}|/]/g;
/**
 * Characters that sanitising removes later (control characters but tab and line feed, which it
 * turns into spaces; invisible format characters): hidden between a key's characters, they
 * must not hide it.
 */
const HIDDEN_CLASS = '(?:(?![\\t\\n])[\\p{Cc}\\p{Cf}])';
/** Whether a text holds one; a carriage return ending a line (CSV's CRLF) does not count. */
const HIDDEN = /(?![\t\n\r])\p{Cc}|\p{Cf}|\r(?!\n)/u;

const escape = (text: string) => text.replace(SYNTAX, '\\$&');

/** A pattern for one form of a secret, with hidden characters allowed between its characters. */
function spreadPattern(form: string): string {
  return Array.from(form, escape).join(`${HIDDEN_CLASS}*`);
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
  private ordered: string[] = [];
  /** The forms as they are, in any letter case: small, so quick to build and to run. */
  private plain: RegExp | undefined;
  /**
   * The forms with hidden characters allowed inside, made only for a text that holds such a
   * character: this pattern takes milliseconds to compile, and almost no text needs it.
   */
  private spread: RegExp | undefined;

  /** Masks this secret from now on, whatever its length: a short key is a key too. */
  add(secret: string | undefined): void {
    if (secret === undefined || secret === '') return;
    let added = false;
    for (const [form, mask] of forms(secret)) {
      if (this.masks.has(form)) continue;
      this.masks.set(form, mask);
      added = true;
    }
    if (!added) return;
    this.ordered = [...this.masks.keys()].sort((a, b) => b.length - a.length);
    this.plain = new RegExp(this.ordered.map((form) => `(${escape(form)})`).join('|'), 'gi');
    this.spread = undefined;
  }

  redact(text: string): string {
    if (this.plain === undefined) return text;
    const masked = text.replace(this.plain, this.maskOf);
    if (!HIDDEN.test(masked)) return masked;
    this.spread ??= new RegExp(
      this.ordered.map((form) => `(${spreadPattern(form)})`).join('|'),
      'giu',
    );
    return masked.replace(this.spread, this.maskOf);
  }

  /** The mask of the form whose group matched (each form is one group, in `ordered`). */
  private readonly maskOf = (...groups: unknown[]): string => {
    const index = groups.findIndex((group, at) => at > 0 && group !== undefined);
    return this.masks.get(this.ordered[index - 1]!)!;
  };
}

function redacting(output: Output, redactor: SecretRedactor): Output {
  // A masked text is not the one given: only all of it or none of it maps back.
  const mapBack = (text: string, masked: string, written: number) =>
    masked === text ? written : written === Buffer.byteLength(masked) ? Buffer.byteLength(text) : 0;
  return {
    write: (text: string) => {
      const masked = redactor.redact(text);
      return mapBack(text, masked, output.write(masked));
    },
    writeSettled: async (text: string) => {
      const masked = redactor.redact(text);
      return mapBack(text, masked, await output.writeSettled(masked));
    },
  };
}

/**
 * The last net over what a run writes, whatever wrote it: every secret the redactor knows is
 * masked on stdout and stderr, and stderr (messages, never data) carries no character a
 * terminal would act on or hide but line feeds and tabs. Each source sanitises and masks its
 * own text already; this catches what one missed (a stack trace, a path, a future writer).
 */
export function guardedIO(io: IO, redactor: SecretRedactor): IO {
  // Copied by descriptor, not spread: a spread would read `stdin` and `stderr`, which the
  // process's IO makes only when a command uses them.
  let stderr: Output | undefined;
  return Object.defineProperties({} as IO, {
    ...Object.getOwnPropertyDescriptors(io),
    stdout: { value: redacting(io.stdout, redactor), enumerable: true },
    // Read when first used, as the process's IO makes its stderr stream.
    stderr: {
      get: () => (stderr ??= redacting(sanitizing(io.stderr), redactor)),
      enumerable: true,
    },
  });
}

function sanitizing(output: Output): Output {
  return {
    write: (text: string) => output.write(sanitizeText(text)),
    writeSettled: (text: string) => output.writeSettled(sanitizeText(text)),
  };
}
