/**
 * A text as a reader takes it once its escapes are undone, with where each of its characters
 * came from: a secret spelled with JSON or Unicode escapes (`\u0073k_...`), or percent-encoded
 * (`%73k_...`), is whole in the view, and masked at its place in the text. Built only for a text
 * holding such an escape; kept as the escapes alone, so a view costs what its escapes do.
 */
export interface View {
  text: string;
  /** Where the view's characters from `start` to `end` (exclusive) came from in the text. */
  span(start: number, end: number): { start: number; end: number };
}

/** JSON's escapes and the Unicode ones a service may use: `\uXXXX`, `\u{X…}`, `\"` and the rest. */
const ESCAPE = /\\(?:u([0-9a-fA-F]{4})|u\{([0-9a-fA-F]{1,6})\}|(["\\/bfnrt]))/g;
/** A percent-encoded byte of ASCII: what a URL spells a key's characters with. */
const PERCENT = /%([0-7][0-9a-fA-F])/g;

/** The view of a text with each match of `pattern` read as `decode` says. */
function decodedView(
  text: string,
  pattern: RegExp,
  decode: (match: RegExpExecArray) => string,
): View | undefined {
  /** For each character an escape reads as: its place in the view, the escape's in the text. */
  const atView: number[] = [];
  const atText: number[] = [];
  const endText: number[] = [];
  let view = '';
  let copied = 0;
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    const read = decode(match);
    view += text.slice(copied, match.index);
    // A character of two UTF-16 units (a surrogate pair): each maps to the whole escape.
    for (let unit = 0; unit < read.length; unit++) {
      atView.push(view.length);
      atText.push(match.index);
      endText.push(match.index + match[0].length);
      view += read.charAt(unit);
    }
    copied = match.index + match[0].length;
  }
  if (atView.length === 0) return undefined;
  view += text.slice(copied);
  /** The last escape at or before view index `at`, or -1. */
  const escapeAt = (at: number) => {
    let low = 0;
    let high = atView.length - 1;
    let found = -1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      if (atView[middle]! <= at) {
        found = middle;
        low = middle + 1;
      } else high = middle - 1;
    }
    return found;
  };
  const textAt = (at: number, end: boolean) => {
    const escape = escapeAt(at);
    if (escape === -1) return at;
    if (atView[escape] === at) return end ? endText[escape]! : atText[escape]!;
    // Plain characters after that escape: as far from its end as in the view.
    return endText[escape]! + (at - atView[escape]! - 1) + (end ? 1 : 0);
  };
  return {
    text: view,
    span: (start, end) => ({ start: textAt(start, false), end: textAt(end - 1, true) }),
  };
}

/** Either kind of escape, in one pattern: a scan finds them in order of place. */
const ANY_ESCAPE = new RegExp(`${ESCAPE.source}|${PERCENT.source}`, 'g');

/** Where the text's escapes are, in order: JSON's and Unicode's, and percent-encoded bytes. */
export function escapeRanges(text: string): { start: number; end: number }[] {
  const ranges: { start: number; end: number }[] = [];
  if (!text.includes('\\') && !text.includes('%')) return ranges;
  ANY_ESCAPE.lastIndex = 0;
  for (let match = ANY_ESCAPE.exec(text); match !== null; match = ANY_ESCAPE.exec(text)) {
    ranges.push({ start: match.index, end: match.index + match[0].length });
  }
  return ranges;
}

/** The text with its JSON and Unicode escapes undone, if it holds one. */
export function escapesUndone(text: string): View | undefined {
  if (!text.includes('\\')) return undefined;
  return decodedView(text, ESCAPE, (match) => {
    const hex = match[1] ?? match[2];
    if (hex === undefined) return JSON.parse(`"${match[0]}"`) as string;
    const code = Number.parseInt(hex, 16);
    return code > 0x10ffff ? match[0] : String.fromCodePoint(code);
  });
}

/** The text with its percent-encoded ASCII undone, if it holds any. */
export function percentUndone(text: string): View | undefined {
  if (!text.includes('%')) return undefined;
  return decodedView(text, PERCENT, (match) => String.fromCharCode(Number.parseInt(match[1]!, 16)));
}
