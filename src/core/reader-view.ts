/**
 * A text as a reader takes it, and where each of its characters came from in the text as
 * written: escapes decoded (percent, JSON), then what would not show taken out (hidden
 * characters, terminal escape sequences, layout). The redactor searches keys in it.
 */

const HIDDEN_CHARACTER = /^(?:(?![\t\n])\p{Cc}|\p{Cf}|\p{DI})$/u;
const HEX4 = /^[0-9a-f]{4}$/i;

/**
 * The text as a reader would take it, and where each of its characters came from. `from[i]`
 * and `to[i]` are the span of the original text that view character i stands for.
 */
export interface View {
  text: string;
  from: number[];
  to: number[];
}

function identity(text: string): View {
  const from = Array.from({ length: text.length }, (_, i) => i);
  return { text, from, to: from.map((i) => i + 1) };
}

/** Builds a view from a view: each new character stands for a span of the old one's. */
class ViewBuilder {
  private readonly chars: string[] = [];
  private readonly from: number[] = [];
  private readonly to: number[] = [];
  constructor(private readonly base: View) {}
  /** `char` stands for base characters [start, end). */
  push(char: string, start: number, end: number): void {
    this.chars.push(char);
    this.from.push(this.base.from[start]!);
    this.to.push(this.base.to[end - 1]!);
  }
  done(): View {
    return { text: this.chars.join(''), from: this.from, to: this.to };
  }
}

const SHORT_ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f' };

/** A run of percent-escapes where `lastIndex` says (sticky: no copy of the text per match). */
const PERCENT_RUN = /(?:%[0-9a-f]{2})+/iy;

/** Bytes a UTF-8 sequence starting with this byte holds (1 for a byte that starts none). */
function sequenceLength(lead: number): number {
  return lead >= 0xf0 && lead <= 0xf7 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
}

/**
 * The characters a run of percent-escapes (starting at `at`, 3 text characters a byte)
 * spells in UTF-8, each standing for the escapes of its bytes; a byte that starts no valid
 * sequence stands for itself.
 */
function pushPercentRun(out: ViewBuilder, bytes: Buffer, at: number): void {
  for (let b = 0; b < bytes.length;) {
    const length = Math.min(sequenceLength(bytes[b]!), bytes.length - b);
    const decoded = bytes.subarray(b, b + length).toString('utf8');
    const whole =
      length > 1 &&
      !decoded.includes('\ufffd') &&
      String.fromCodePoint(decoded.codePointAt(0)!) === decoded;
    const taken = whole ? length : 1;
    out.push(whole ? decoded : String.fromCharCode(bytes[b]!), at + 3 * b, at + 3 * (b + taken));
    b += taken;
  }
}

/**
 * One round of decoding: a run of percent-escapes as the UTF-8 it spells (a zero-width space
 * is %E2%80%8B), JSON's \uXXXX, \", \\ and \/. An escape inside an escape (%2573) needs
 * another round.
 */
function decodeOnce(view: View): View {
  const text = view.text;
  const out = new ViewBuilder(view);
  for (let i = 0; i < text.length;) {
    const char = text[i]!;
    PERCENT_RUN.lastIndex = i;
    const run = char === '%' ? PERCENT_RUN.exec(text)?.[0] : undefined;
    if (run) {
      pushPercentRun(out, Buffer.from(run.replaceAll('%', ''), 'hex'), i);
      i += run.length;
    } else if (char === '\\' && text[i + 1] === 'u' && HEX4.test(text.slice(i + 2, i + 6))) {
      out.push(String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16)), i, i + 6);
      i += 6;
    } else if (char === '\\' && '/"\\'.includes(text[i + 1] ?? 'none')) {
      out.push(text[i + 1]!, i, i + 2);
      i += 2;
    } else if (char === '\\' && (text[i + 1] ?? 'none') in SHORT_ESCAPES) {
      // JSON's \n, \t, \r, \b, \f: a line break or control inside a key, spelled short.
      out.push(SHORT_ESCAPES[text[i + 1]!]!, i, i + 2);
      i += 2;
    } else {
      out.push(char, i, i + 1);
      i += 1;
    }
  }
  return out.done();
}

/**
 * Characters that only lay text out: line breaks, tabs, no-break and other spaces but the
 * plain one. A key split by them is still the key to a reader, who joins the pieces.
 */
const LAYOUT_CLASS = '[\\t\\n\\r\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]';
const LAYOUT = new RegExp(`^${LAYOUT_CLASS}$`, 'u');
export const EVERY_LAYOUT = new RegExp(LAYOUT_CLASS, 'gu');
/** Whether a text holds such a character (then a split key is looked for too). */
export const HAS_LAYOUT = new RegExp(LAYOUT_CLASS, 'u');

/**
 * The text as one line, in one of two readings, since a key must be found in both: as a
 * terminal shows it (escape sequences act and vanish whole, a terminated control string with
 * its payload), or as the sanitised text shows it (only the control characters themselves
 * removed, what followed them shown). Hidden characters and layout go in both.
 */
export function stripHidden(view: View, reading: 'terminal' | 'sanitised'): View {
  const text = view.text;
  const out = new ViewBuilder(view);
  for (let i = 0; i < text.length;) {
    const code = text.charCodeAt(i);
    if (reading === 'terminal' && (code === 0x1b || (code >= 0x80 && code <= 0x9f))) {
      i = afterEscapeSequence(text, i);
      continue;
    }
    const whole = String.fromCodePoint(text.codePointAt(i)!);
    if (!HIDDEN_CHARACTER.test(whole) && !LAYOUT.test(whole)) out.push(whole, i, i + whole.length);
    i += whole.length;
  }
  return out.done();
}

/**
 * The forms a secret takes in a reader's view of a text that holds it: at each level of
 * decoding, as a terminal and as the sanitised text show it. The secret itself for most keys;
 * others for a key holding what reads as an escape (%41, \t) or a hidden character.
 */
export function readerForms(secret: string): Set<string> {
  const forms = new Set<string>();
  for (const level of decodingLevels(secret)) {
    forms.add(level.text);
    forms.add(stripHidden(level, 'terminal').text);
    forms.add(stripHidden(level, 'sanitised').text);
  }
  forms.delete(secret);
  return forms;
}

/** The text at each level of decoding (up to six rounds), the text as given first. */
export function decodingLevels(text: string): View[] {
  const levels = [identity(text)];
  for (let round = 0; round < 6 && /[%\\]/.test(levels.at(-1)!.text); round++) {
    const decoded = decodeOnce(levels.at(-1)!);
    if (decoded.text === levels.at(-1)!.text) break;
    levels.push(decoded);
  }
  return levels;
}

/** Introducers of a control string (OSC, DCS, SOS, PM, APC), after ESC and as C1 codes. */
const STRING_AFTER_ESC = new Set([']', 'P', 'X', '^', '_']);
const STRING_C1 = new Set([0x9d, 0x90, 0x98, 0x9e, 0x9f]);

/**
 * Where a terminal escape sequence starting at `at` ends (ECMA-48), as a terminal reads it:
 * a CSI (ESC [ or C1 CSI) at its final byte; a control string (OSC, DCS, SOS, PM, APC, by ESC
 * or C1) at BEL or ST (ESC \ or C1 ST), or the end of the text; ESC, intermediates and a final
 * (ESC ( B); any other C1 control alone.
 */
function afterEscapeSequence(text: string, at: number): number {
  const code = text.charCodeAt(at);
  const next = text[at + 1];
  const csi = code === 0x9b || (code === 0x1b && next === '[');
  const controlString = STRING_C1.has(code) || (code === 0x1b && STRING_AFTER_ESC.has(next ?? ''));
  let i = code === 0x1b && (csi || controlString) ? at + 2 : at + 1;
  if (csi) {
    while (i < text.length && /[\x20-\x3f]/.test(text[i]!)) i++;
    return Math.min(text.length, i + 1);
  }
  if (controlString) {
    for (; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x07 || c === 0x9c) return i + 1;
      if (c === 0x1b && text[i + 1] === '\\') return i + 2;
    }
    // Unterminated: only its introducer (the sanitised reading shows what follows).
    return code === 0x1b ? at + 2 : at + 1;
  }
  if (code !== 0x1b) return at + 1; // another C1 control: one character
  while (i < text.length && /[\x20-\x2f]/.test(text[i]!)) i++;
  return Math.min(text.length, i + 1);
}
