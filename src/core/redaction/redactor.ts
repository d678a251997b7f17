import type { IO, Output } from '../io.js';
import { sanitizeText } from '../sanitize.js';
import { MASK, maskKey } from './mask.js';
import { SecretSearch, type Found } from './search.js';
import { escapesUndone, percentUndone } from './views.js';

/**
 * A secret shorter than this, or without a letter, is not searched for in text: it cannot be
 * told from data (a key "1" is in every id, a key "123456789" inside a larger id), and masking
 * it would corrupt what a service sends. Petstore never prints such a key itself (only its
 * masked form), and warns that a service echoing it is not masked.
 */
export const MIN_FINDABLE_SECRET = 8;
const LETTER = /\p{L}/u;
const ASCII_LETTER = /[a-z]/i;

/** Why a secret cannot be told from data, or undefined when it can. */
export function unfindableBecause(secret: string): string | undefined {
  if (secret.length < MIN_FINDABLE_SECRET) {
    return `it has ${secret.length} characters, fewer than ${MIN_FINDABLE_SECRET}`;
  }
  // An ASCII letter answers without the Unicode search (whose first use costs a tenth of a ms).
  return ASCII_LETTER.test(secret) || LETTER.test(secret)
    ? undefined
    : 'it holds no letter (it reads as a number or a date)';
}

/** The mask in the form the replaced text had, so a masked JSON string or URL stays valid. */
function maskLike(original: string, mask: string): string {
  if (original.includes('\\')) return JSON.stringify(mask).slice(1, -1);
  if (original.includes('%')) return encodeURIComponent(mask);
  return mask;
}

/**
 * Every secret the run has seen, and the means to keep them out of any text. Whatever the
 * source (a service echoing a key in an error, a verbose log, a table cell), a known secret
 * reaching stdout or stderr through a redacting stream comes out masked: whole in any letter
 * case, in the encodings a transport gives it (hex, base64, base64url, percent-encoding, JSON
 * and Unicode escapes), and any part of it long enough not to be ordinary text (see
 * secret-forms.ts). Ordinary data is never changed, and the search takes time linear in the
 * text. What it does not promise: a service that holds the key can always show it some other
 * way (reversed, spaced out, drawn by a terminal's cursor moves); decision 0012.
 */
export class SecretRedactor {
  /** secret -> its mask. */
  private readonly masks = new Map<string, string>();
  /** The search, made when first needed after a secret is added (a run adds several first). */
  private searches: SecretSearch | undefined;

  /** Whether a secret can be told from data, and so found in text (see MIN_FINDABLE_SECRET). */
  static findable(secret: string): boolean {
    return unfindableBecause(secret) === undefined;
  }

  /**
   * Masks this secret from now on, when it is long enough to tell from data. A key's mask shows
   * its last characters (which key it was); a password's (`hidden`) shows none of it.
   */
  add(secret: string | undefined, options: { hidden?: boolean } = {}): void {
    if (secret === undefined || !SecretRedactor.findable(secret) || this.masks.has(secret)) return;
    this.masks.set(secret, options.hidden ? MASK : maskKey(secret));
    this.searches = undefined;
  }

  redact(text: string): string {
    if (this.masks.size === 0) return text;
    this.searches ??= new SecretSearch(this.masks);
    const search = this.searches;
    let masked = replace(text, search.find(text));
    // Spelled with escapes: found in the text as a reader takes it, masked at its place.
    for (const undo of [escapesUndone, percentUndone]) {
      const view = undo(masked);
      if (view === undefined) continue;
      const spans = search
        .find(view.text)
        .map((found) => ({ ...found, ...view.span(found.start, found.end) }));
      masked = replace(masked, spans);
    }
    return masked;
  }
}

function replace(text: string, spans: Found[]): string {
  if (spans.length === 0) return text;
  let result = '';
  let copied = 0;
  for (const { start, end, mask } of spans) {
    if (start < copied) continue;
    // In the form the replaced text had: a masked JSON string or URL stays valid.
    result += text.slice(copied, start) + maskLike(text.slice(start, end), mask);
    copied = end;
  }
  return result + text.slice(copied);
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
