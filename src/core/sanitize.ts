// What a terminal would act on or hide: control characters (C0, DEL, C1: escape sequences start
// with ESC or CSI) and invisible format characters (bidirectional overrides and isolates such
// as U+202E and U+2066, zero-width characters, the BOM, soft hyphens, tag characters; and the
// default-ignorable rest: fillers such as U+3164, variation selectors, U+034F). Service
// text that reaches a table or a message is stripped of them, so it cannot move the cursor,
// recolour the screen or show other text than it holds.
const LINE_BREAKS = /[\t\n\u2028\u2029]/g;
const INVISIBLE = /[\p{Cc}\p{Cf}\p{DI}]/gu;

/** Text for one table cell or one message line: no control or format characters, one line. */
export function sanitizeLine(text: string): string {
  return text.replace(LINE_BREAKS, ' ').replace(INVISIBLE, '');
}

/** Everything but line feeds and tabs a terminal would act on or hide (CR too: it overwrites). */
const UNSAFE_IN_TEXT = /(?![\t\n])[\p{Cc}\p{Cf}\p{DI}\u2028\u2029]/u;
const EVERY_UNSAFE_IN_TEXT = new RegExp(UNSAFE_IN_TEXT.source, 'gu');

/** Text of several lines for a terminal: the same, without what sanitizeLine removes, but \n. */
export function sanitizeText(text: string): string {
  return UNSAFE_IN_TEXT.test(text) ? text.replace(EVERY_UNSAFE_IN_TEXT, '') : text;
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
