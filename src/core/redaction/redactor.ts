import { MASK, maskKey } from './mask.js';
import { SecretSearch, type Found } from './search.js';
import { escapeRanges, escapesUndone, percentUndone } from './views.js';

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
    let masked = replace(text, settled(text, search.find(text)));
    // Spelled with escapes: found in the text as a reader takes it, masked at its place.
    for (const undo of [escapesUndone, percentUndone]) {
      const view = undo(masked);
      if (view === undefined) continue;
      const spans = search
        .find(view.text)
        .map((found) => ({ ...found, ...view.span(found.start, found.end) }));
      masked = replace(masked, settled(masked, spans));
    }
    return masked;
  }
}

/**
 * The spans as they may be masked without changing what the text means around them: a bare
 * `"` at either edge left out (in JSON it is the string's own quote, not the key's, which JSON
 * escapes), then each escape a span cuts (`\\`, `\u0041`, `%41`) taken whole: a part of a key
 * that ends inside one would leave half of it, and a JSON string or URL that means something
 * else (`\t` from a key's `\\t`) or nothing at all.
 */
function settled(text: string, spans: Found[]): Found[] {
  if (spans.length === 0) return spans;
  const escapes = escapeRanges(text);
  let at = 0;
  const inside = (position: number) => {
    // Spans come in order: the escapes before one are passed once.
    while (at < escapes.length && escapes[at]!.end <= position) at++;
    const escape = escapes[at];
    return escape !== undefined && escape.start < position ? escape : undefined;
  };
  return spans.map((span) => {
    let { start, end } = span;
    if (text[start] === '"' && end - start > 1) start++;
    if (text[end - 1] === '"' && end - start > 1) end--;
    start = inside(start)?.start ?? start;
    end = inside(end)?.end ?? end;
    return { ...span, start, end };
  });
}

function replace(text: string, spans: Found[]): string {
  if (spans.length === 0) return text;
  let result = '';
  let copied = 0;
  for (const { start, end, mask } of spans) {
    if (start < copied) continue;
    // A mask is plain characters (maskKey): valid as it is in a JSON string or a URL.
    result += text.slice(copied, start) + mask;
    copied = end;
  }
  return result + text.slice(copied);
}
