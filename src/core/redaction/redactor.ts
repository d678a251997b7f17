import type { IO, Output } from '../io.js';
import {
  decodingLevels,
  EVERY_LAYOUT,
  HAS_LAYOUT,
  readerForms,
  stripHidden,
  type View,
} from './reader-view.js';
import { sanitizeText } from '../sanitize.js';
import { MASK, maskKey } from './mask.js';

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

const SYNTAX = /[\\^$.*+?()[\]{}|/]/g;
const escape = (text: string) => text.replace(SYNTAX, '\\$&');

/** A key this long or longer is also found cut short (its first or last half, or more). */
const MIN_TRUNCATED_KEY = 16;

/**
 * The patterns of a secret cut short, as services echo one ("invalid key sk_live_ab12…"):
 * its first or its last half or more. Shown with the last four characters of the masked form,
 * such an echo would give away the whole key. (Only the ends: a cut from the middle is rare,
 * and every window would slow the search that all output passes through.)
 */
function truncatedForms(secret: string): string[] {
  if (secret.length < MIN_TRUNCATED_KEY) return [];
  const half = Math.max(MIN_FINDABLE_SECRET, Math.ceil(secret.length / 2));
  // By code point, as the regular expression (flag u) reads the key; keys are ASCII anyway.
  const points = Array.from(secret);
  const rest = points.slice(half, -1);
  const head = points.slice(0, half).map(escape).join('');
  // head, then as many of the following characters as come: a(b(c)?)?
  const onward = rest.reduceRight((inner, point) => `(?:${escape(point)}${inner})?`, '');
  // The last half as it is: a pattern that may start anywhere before it would make every
  // character a possible start, and the search slow. More of the key before it stays shown,
  // but never with the first half: the whole key is never given away.
  const tail = points.slice(-half).map(escape).join('');
  return [`${head}${onward}`, tail];
}

/**
 * What may hide a secret from a plain search: an escape (percent-encoding, a JSON \uXXXX or
 * \/, a terminal's escape sequence) or a character sanitising removes later (control characters
 * but tab and line feed, invisible format and default-ignorable characters). A carriage return
 * ending a line (CSV's CRLF) does not count.
 */
// ESC, which starts a terminal's escape sequence, is one of the control characters.
// One character class (the control characters but tab, line feed and CR spelled out): a single
// class is searched much faster than an alternation of property escapes.
// eslint-disable-next-line no-control-regex
const MAY_HIDE = /[%\\\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\p{Cf}\p{DI}]|\r(?!\n)/u;
/** Anything but printable ASCII (less % and \), tab and line feed: most text has none. */
const NOT_PLAIN = /[^\t\n\x20-\x24\x26-\x5b\x5d-\x7e]/;
const mayHide = (text: string) => NOT_PLAIN.test(text) && MAY_HIDE.test(text);
/** The mask in the form the replaced text had, so a masked JSON string or URL stays valid. */
function maskLike(original: string, mask: string): string {
  if (original.includes('\\')) return JSON.stringify(mask).slice(1, -1);
  if (original.includes('%')) return encodeURIComponent(mask);
  return mask;
}

/**
 * A long text is masked a segment at a time, so the reader's views of it (see reader-view.ts)
 * stay the size of a segment whatever the text's length and spelling: memory follows what is
 * printed. Segments end only between two JSON values of a list (`},{`, `}\n{` and their
 * spaced forms), where no secret a reader sees whole can be cut: a key split across two of a
 * service's records is two texts to a reader too.
 */
const SEGMENT = 64 * 1024;
const BETWEEN_VALUES = /\}\s*,?\s*\{/g;

function segments(text: string): string[] {
  const parts: string[] = [];
  let start = 0;
  while (text.length - start > SEGMENT) {
    BETWEEN_VALUES.lastIndex = start + SEGMENT;
    const found = BETWEEN_VALUES.exec(text);
    if (!found) break;
    // Cut just before the next value's `{`.
    const cut = found.index + found[0].length - 1;
    parts.push(text.slice(start, cut));
    start = cut;
  }
  parts.push(text.slice(start));
  return parts;
}

/**
 * Every secret the run has seen, and the means to keep them out of any text. Whatever the
 * source (a service echoing a key in an error, a verbose log, a table cell), a secret of 8
 * characters or more reaching stdout or stderr through a redacting stream comes out masked. A
 * service may also change it on the way: letter case, percent-encoding or JSON escapes of any
 * of its characters, invisible characters or terminal escape sequences inside it; those are
 * masked too. The client masks responses as they arrive as well, before any text is cut short
 * (an excerpt, a table cell), since the start of a key cut off is no longer the key.
 */
export class SecretRedactor {
  /** secret -> its mask. */
  private readonly masks = new Map<string, string>();
  /**
   * The searches, made when first needed after a secret is added (a run adds several before
   * it prints anything). `whole`: the secrets in any letter case, longest first, so one inside
   * another is masked whole; `pattern`: the same, then their cut-short forms.
   */
  private searches: { whole: RegExp; pattern: RegExp } | undefined;

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
    const mask = options.hidden ? MASK : maskKey(secret);
    this.masks.set(secret, mask);
    // A key holding what reads as an escape (%41, \t) reads otherwise once a text around it is
    // decoded: the forms it takes are searched for too, each with the key's own mask.
    for (const form of readerForms(secret)) {
      if (SecretRedactor.findable(form) && !this.masks.has(form)) this.masks.set(form, mask);
    }
    this.searches = undefined;
  }

  private search(): { whole: RegExp; pattern: RegExp } {
    if (this.searches) return this.searches;
    const ordered = [...this.masks.keys()].sort((a, b) => b.length - a.length);
    // Whole secrets first (one inside another is masked whole), then their cut-short forms.
    const alternatives = [...ordered.map(escape), ...ordered.flatMap(truncatedForms)];
    return (this.searches = {
      whole: new RegExp(ordered.map(escape).join('|'), 'giu'),
      pattern: new RegExp(alternatives.join('|'), 'giu'),
    });
  }

  redact(text: string): string {
    if (this.masks.size === 0) return text;
    const { whole, pattern } = this.search();
    if (text.length > SEGMENT) {
      const parts = segments(text);
      if (parts.length > 1) return parts.map((part) => this.redact(part)).join('');
    }
    if (!splitByLayout(text, pattern) && !mayHide(text)) {
      return text.replace(pattern, (found) => this.maskOf(found));
    }
    // Whole secrets as written (one may hold a backslash or a %), then, in the text as a reader
    // takes it (rarely needed, so built only then), whole secrets and cut-short forms: at each
    // level of decoding (one more round may take a key's own backslash for an escape), as a
    // terminal shows it and as the sanitised text does.
    let masked = text.replace(whole, (found) => this.maskOf(found));
    // The readings of the text as it now is, each built once and kept while nothing is masked
    // (most texts: both searches then read the same views).
    let levels = decodingLevels(masked);
    let readings = new Map<string, View>();
    const reading = (level: number, how: 'terminal' | 'sanitised') => {
      const key = `${level}${how}`;
      let view = readings.get(key);
      if (view === undefined) readings.set(key, (view = stripHidden(levels[level]!, how)));
      return view;
    };
    // Whole secrets everywhere first: a cut-short form masked first would split one.
    for (const search of [whole, pattern]) {
      for (let level = 0; level < levels.length; level++) {
        for (const how of ['terminal', 'sanitised'] as const) {
          if (levels[level] === undefined) break;
          const next = this.maskInView(masked, reading(level, how), search);
          // Masking changes the text, and with it what decodes: its levels are read again.
          if (next !== masked) {
            levels = decodingLevels((masked = next));
            readings = new Map();
          }
        }
      }
    }
    return masked;
  }

  /** The text with each secret the view shows replaced, in the original, by its mask. */
  private maskInView(text: string, view: View, pattern: RegExp): string {
    let result = '';
    let copied = 0;
    for (const match of view.text.matchAll(pattern)) {
      const start = view.from(match.index);
      const end = view.to(match.index + match[0].length - 1);
      result += text.slice(copied, start) + maskLike(text.slice(start, end), this.maskOf(match[0]));
      copied = end;
    }
    return copied === 0 ? text : result + text.slice(copied);
  }

  /** The mask of a secret found in any letter case; a cut-short one shows none of it. */
  private maskOf(found: string): string {
    const exact = this.masks.get(found);
    if (exact !== undefined) return exact;
    const lower = found.toLowerCase();
    for (const [secret, mask] of this.masks) if (secret.toLowerCase() === lower) return mask;
    return MASK;
  }
}

/**
 * Whether the text, its layout characters (line breaks, tabs, no-break spaces) taken out, holds
 * a secret or a cut-short one (the pattern's): split by them, a key is still the key to a
 * reader. Only then is the reader's view built; most text with a line break holds no key at all.
 */
function splitByLayout(text: string, pattern: RegExp): boolean {
  if (!HAS_LAYOUT.test(text)) return false;
  pattern.lastIndex = 0;
  const found = pattern.test(text.replace(EVERY_LAYOUT, ''));
  pattern.lastIndex = 0;
  return found;
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
