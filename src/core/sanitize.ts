// What a terminal would act on or hide: control characters (C0, DEL, C1: escape sequences start
// with ESC or CSI) and invisible format characters (bidirectional overrides and isolates such
// as U+202E and U+2066, zero-width characters, the BOM, soft hyphens, tag characters; and the
// default-ignorable rest: fillers such as U+3164, variation selectors, U+034F). Service
// text that reaches a table or a message is stripped of them, so it cannot move the cursor,
// recolour the screen or show other text than it holds.
const LINE_BREAKS = /[\t\n\u2028\u2029]/g;
const INVISIBLE = /[\p{Cc}\p{Cf}\p{DI}]/gu;

/** The subdivision flags Unicode recommends (England, Scotland, Wales): tags under a black flag. */
const TAG_FLAG =
  /\u{1F3F4}\u{E0067}\u{E0062}(?:\u{E0065}\u{E006E}\u{E0067}|\u{E0073}\u{E0063}\u{E0074}|\u{E0077}\u{E006C}\u{E0073})\u{E007F}/gu;
/** A pictograph, with the skin tone or emoji style it may carry, right before a joiner. */
const PICTOGRAPH_BEFORE = /\p{Extended_Pictographic}(?:[\u{1F3FB}-\u{1F3FF}]|\uFE0F)?$/u;
const PICTOGRAPH_AFTER = /^\p{Extended_Pictographic}/u;
const EMOJI_BEFORE = /\p{Emoji}$/u;

/**
 * The text without what `pattern` (global, one code point a match) finds, except the invisible
 * characters an emoji is made of: a zero-width joiner between two pictographs (a family, a
 * firefighter), a variation selector after an emoji (the red of ❤️), the tags of a recommended
 * flag. They join or style glyphs that are shown, so they can neither move the cursor nor hide
 * text; anywhere else (a joiner between letters, tags spelling hidden words) they are removed.
 */
export function withoutInvisible(text: string, pattern: RegExp): string {
  let flags: [number, number][] | undefined;
  return text.replace(pattern, (character: string, offset: number) => {
    if (character === '\u200D') {
      const before = text.slice(Math.max(0, offset - 4), offset);
      const after = text.slice(offset + 1, offset + 3);
      return PICTOGRAPH_BEFORE.test(before) && PICTOGRAPH_AFTER.test(after) ? character : '';
    }
    if (character === '\uFE0F' || character === '\uFE0E') {
      return EMOJI_BEFORE.test(text.slice(Math.max(0, offset - 2), offset)) ? character : '';
    }
    const code = character.codePointAt(0)!;
    if (code >= 0xe0020 && code <= 0xe007f) {
      flags ??= [...text.matchAll(TAG_FLAG)].map((m) => [m.index, m.index + m[0].length]);
      return flags.some(([start, end]) => offset > start && offset < end) ? character : '';
    }
    return '';
  });
}

/** Text for one table cell or one message line: no control or format characters, one line. */
export function sanitizeLine(text: string): string {
  return withoutInvisible(text.replace(LINE_BREAKS, ' '), INVISIBLE);
}

/** Everything but line feeds and tabs a terminal would act on or hide (CR too: it overwrites). */
const UNSAFE_IN_TEXT = /(?![\t\n])[\p{Cc}\p{Cf}\p{DI}\u2028\u2029]/u;
const EVERY_UNSAFE_IN_TEXT = new RegExp(UNSAFE_IN_TEXT.source, 'gu');

/** Text of several lines for a terminal: the same, without what sanitizeLine removes, but \n. */
export function sanitizeText(text: string): string {
  return UNSAFE_IN_TEXT.test(text) ? withoutInvisible(text, EVERY_UNSAFE_IN_TEXT) : text;
}

/** Control characters but tab, line feed and a CR ending a line (C0, DEL, C1). */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]|\r(?!\n)/g;

/**
 * Characters that reorder or hide text without a control code: bidirectional overrides and
 * isolates, zero-width spaces and joiners of words, the byte order mark, line and paragraph
 * separators. (The joiners emoji and scripts are written with are left: they are text.)
 */
const HIDING = /[\u061c\u200b\u200e\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff\u2028\u2029]/g;

/**
 * A service's text with each control character shown as `cat -v` shows it (ESC as `^[`, DEL
 * as `^?`, a C1 character as `M-^[`), and each character that reorders or hides text as its
 * code point (`<U+202E>`): nothing in it can drive or deceive a terminal it reaches, now or
 * when a file of it is shown later, and every character is still there to read.
 */
export function caretControls(text: string): string {
  return text
    .replace(CONTROL, (character) => {
      const code = character.charCodeAt(0);
      if (code === 0x7f) return '^?';
      const base = code >= 0x80 ? code - 0x80 : code;
      return `${code >= 0x80 ? 'M-' : ''}^${String.fromCharCode(base + 0x40)}`;
    })
    .replace(HIDING, (character) => `<U+${character.charCodeAt(0).toString(16).toUpperCase()}>`);
}

/** A short, safe excerpt of an unexpected response body. */
export function snippet(text: string, max = 120): string {
  const flat = sanitizeLine(text).replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/**
 * The characters JSON.stringify leaves raw that a terminal would act on or hide. In JSON they
 * can only stand inside strings, where a \uXXXX escape is the same value: output stays exact.
 */
const RAW_IN_JSON = /[\u007f-\u009f\u2028\u2029\p{Cf}\p{DI}]/gu;

export function escapeInvisibleInJson(json: string): string {
  return json.replace(RAW_IN_JSON, (character) =>
    Array.from(
      { length: character.length },
      (_, i) => `\\u${character.charCodeAt(i).toString(16).padStart(4, '0')}`,
    ).join(''),
  );
}

/**
 * Terminal escape sequences whole (CSI such as ESC[31m, OSC such as a hyperlink up to its BEL
 * or ST, and the two-character ones): removing only their control characters, as sanitizeLine
 * does, leaves their text ("[31m") behind.
 */
const ESCAPE_SEQUENCE =
  // eslint-disable-next-line no-control-regex -- the escapes are what it finds
  /(?:\u001b\[|\u009b)[0-?]*[ -/]*[@-~]|(?:\u001b\]|\u009d)[^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)?|\u001b[@-Z\\-_]/g;

/** Text for an agent: escape sequences gone whole, and no lone surrogate (a broken character). */
export function withoutEscapes(text: string): string {
  return text.replace(ESCAPE_SEQUENCE, '').toWellFormed();
}
