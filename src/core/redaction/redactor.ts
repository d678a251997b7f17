import type { IO, Output } from '../io.js';
import {
  decodingLevels,
  EVERY_LAYOUT,
  sequenceOpenAt,
  HAS_LAYOUT,
  readerForms,
  stripHidden,
  type View,
} from './reader-view.js';
import { sanitizeText } from '../sanitize.js';
import { MASK, maskKey } from './mask.js';
import { maskDrawn, MOVES_CURSOR } from './rendered.js';
import { RunSearch, secretOf, type Run } from './secret-runs.js';

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
/**
 * How far back a cut looks for an escape sequence still open at it: a `}{` inside one (an
 * outside probe hid it in a window title, a key's halves around it) is hidden by a terminal,
 * so no cut is made there.
 */
const SEQUENCE_REACH = 4096;

function segments(text: string): string[] {
  const parts: string[] = [];
  let start = 0;
  let from = start + SEGMENT;
  while (text.length - start > SEGMENT) {
    BETWEEN_VALUES.lastIndex = from;
    const found = BETWEEN_VALUES.exec(text);
    if (!found) break;
    // Cut just before the next value's `{`.
    const cut = found.index + found[0].length - 1;
    if (sequenceOpenAt(text, Math.max(start, cut - SEQUENCE_REACH), cut)) {
      from = cut;
      continue;
    }
    from = cut + SEGMENT;
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
  /** The search, made when first needed after a secret is added (a run adds several first). */
  private searches: RunSearch | undefined;

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

  private search(): RunSearch {
    this.searches ??= new RunSearch(
      [...this.masks].map(([secret, mask]) => secretOf(secret, mask)),
    );
    return this.searches;
  }

  redact(text: string): string {
    if (this.masks.size === 0) return text;
    const search = this.search();
    if (text.length > SEGMENT) {
      const parts = segments(text);
      if (parts.length > 1) {
        const joined = parts.map((part) => this.redact(part)).join('');
        // Drawn whole: a cursor moved in one segment draws over what another wrote.
        return MOVES_CURSOR.test(joined) ? maskDrawn(joined, search) : joined;
      }
    }
    if (!splitByLayout(text, search) && !mayHide(text)) return replaceRuns(text, search.runs(text));
    // In the text as a reader takes it (rarely needed, so built only then), where a key split
    // by what the reader does not see is whole: at each level of decoding (one more round may
    // take a key's own backslash for an escape), as a terminal shows it and as the sanitised
    // text does. The text as written is the first level's terminal reading but for escapes.
    let masked = text;
    let levels = decodingLevels(masked);
    let readings = new Map<string, View>();
    const reading = (level: number, how: 'terminal' | 'sanitised') => {
      const key = `${level}${how}`;
      let view = readings.get(key);
      if (view === undefined) readings.set(key, (view = stripHidden(levels[level]!, how)));
      return view;
    };
    // Whole secrets at every level first: a part masked first would split one. Then parts,
    // the most decoded level first, where a part cut short runs longest.
    for (const wholeOnly of [true, false]) {
      for (let step = 0; step < levels.length; step++) {
        const level = wholeOnly ? step : levels.length - 1 - step;
        for (const how of ['terminal', 'sanitised'] as const) {
          if (levels[level] === undefined) break;
          const next = maskInView(masked, reading(level, how), search, wholeOnly);
          // Masking changes the text, and with it what decodes: its levels are read again.
          if (next !== masked) {
            levels = decodingLevels((masked = next));
            readings = new Map();
          }
        }
      }
    }
    // As a terminal draws it, where the text moves its cursor back over what it wrote.
    return MOVES_CURSOR.test(masked) ? maskDrawn(masked, search) : masked;
  }
}

/**
 * A run's span masked: in the form the replaced text had (a masked JSON string or URL stays
 * valid), and never taking a tab or line break with it, so a TSV row keeps its columns and a
 * line stays a line (an outside probe saw a TSV row lose one).
 */
function maskedSpan(span: string, mask: string): string {
  if (!/[\t\n]/.test(span)) return maskLike(span, mask);
  return span
    .split(/(\r?\n|\t)/)
    .map((part, i) => (i % 2 === 1 ? part : part === '' ? '' : maskLike(part, MASK)))
    .join('');
}

function replaceRuns(text: string, runs: Run[]): string {
  if (runs.length === 0) return text;
  let result = '';
  let copied = 0;
  for (const run of runs) {
    result += text.slice(copied, run.start) + maskedSpan(text.slice(run.start, run.end), run.mask);
    copied = run.end;
  }
  return result + text.slice(copied);
}

/** The text with each run of a secret the view shows replaced, in the original, by its mask. */
function maskInView(text: string, view: View, search: RunSearch, wholeOnly: boolean): string {
  let result = '';
  let copied = 0;
  for (const run of search.runs(view.text)) {
    if (wholeOnly && !run.whole) continue;
    const start = view.from(run.start);
    const end = view.to(run.end - 1);
    if (start < copied) continue;
    result += text.slice(copied, start) + maskedSpan(text.slice(start, end), run.mask);
    copied = end;
  }
  return copied === 0 ? text : result + text.slice(copied);
}

/**
 * Whether the text, its layout characters (line breaks, tabs, no-break spaces) taken out, holds
 * a secret or a cut-short one (the pattern's): split by them, a key is still the key to a
 * reader. Only then is the reader's view built; most text with a line break holds no key at all.
 */
function splitByLayout(text: string, search: RunSearch): boolean {
  return HAS_LAYOUT.test(text) && search.test(text.replace(EVERY_LAYOUT, ''));
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
