/**
 * A text as a reader takes it, and where each of its characters came from in the text as
 * written: escapes decoded (percent, JSON), then what would not show taken out (hidden
 * characters, terminal escape sequences, layout). The redactor searches keys in it.
 */

const HEX4 = /^[0-9a-f]{4}$/i;

/** Grows an Int32Array by doubling: a run map costs 4 bytes a number, whatever the text. */
function grown(array: Int32Array<ArrayBuffer>, needed: number): Int32Array<ArrayBuffer> {
  if (needed <= array.length) return array;
  const bigger = new Int32Array(Math.max(needed, array.length * 2));
  bigger.set(array);
  return bigger;
}

/**
 * The text as a reader would take it, and where each of its characters came from in the
 * original text: `from(i)` and `to(i)` are the span view character i stands for. Kept as runs
 * over the view it was built from (a run of characters copied as they are, or one character
 * standing for a span: an escape), never one entry a character: a page of text with a hidden
 * character in each row costs a few numbers a row, not a few arrays the size of the page.
 */
export class View {
  /** Run r: view characters from vStart[r] stand for base characters from bStart[r]. */
  private vStart = new Int32Array(16);
  private bStart = new Int32Array(16);
  /** Copied runs: bEnd[r] = -1; one character standing for base [bStart, bEnd): bEnd[r]. */
  private bEnd = new Int32Array(16);
  private runs = 0;
  private readonly parts: string[] = [];
  private length = 0;
  private built: string | undefined;

  /** A view of `base` (a text itself when none). */
  constructor(
    private readonly base: View | undefined,
    text?: string,
  ) {
    if (text !== undefined) this.built = text;
  }

  static of(text: string): View {
    return new View(undefined, text);
  }

  get text(): string {
    return (this.built ??= this.parts.join(''));
  }

  /** Base characters [start, end) as they are. */
  copy(start: number, end: number): void {
    if (end <= start) return;
    const r = this.runs - 1;
    const contiguous =
      r >= 0 && this.bEnd[r] === -1 && this.bStart[r]! + (this.length - this.vStart[r]!) === start;
    if (!contiguous) this.addRun(start, -1);
    this.parts.push(this.base!.text.slice(start, end));
    this.length += end - start;
  }

  /** `char` (one code point, one or two code units) stands for base characters [start, end). */
  push(char: string, start: number, end: number): void {
    this.addRun(start, end);
    this.parts.push(char);
    this.length += char.length;
  }

  private addRun(start: number, end: number): void {
    const r = this.runs++;
    this.vStart = grown(this.vStart, this.runs);
    this.bStart = grown(this.bStart, this.runs);
    this.bEnd = grown(this.bEnd, this.runs);
    this.vStart[r] = this.length;
    this.bStart[r] = start;
    this.bEnd[r] = end;
  }

  /** The run holding view character i (binary search: runs are in order). */
  private runOf(i: number): number {
    let low = 0;
    let high = this.runs - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (this.vStart[mid]! <= i) low = mid;
      else high = mid - 1;
    }
    return low;
  }

  /** Where in the original text view character i starts. */
  from(i: number): number {
    if (this.base === undefined) return i;
    const r = this.runOf(i);
    const end = this.bEnd[r]!;
    return this.base.from(end === -1 ? this.bStart[r]! + i - this.vStart[r]! : this.bStart[r]!);
  }

  /** Where in the original text view character i ends. */
  to(i: number): number {
    if (this.base === undefined) return i + 1;
    const r = this.runOf(i);
    const end = this.bEnd[r]!;
    return this.base.to(end === -1 ? this.bStart[r]! + i - this.vStart[r]! : end - 1);
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
function pushPercentRun(out: View, bytes: Buffer, at: number): void {
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
  const out = new View(view);
  // Only a % or a backslash starts an escape: what lies between is copied as one run.
  const ESCAPE_START = /[%\\]/g;
  let copied = 0;
  for (let found = ESCAPE_START.exec(text); found; found = ESCAPE_START.exec(text)) {
    const i = found.index;
    const char = text[i]!;
    PERCENT_RUN.lastIndex = i;
    const run = char === '%' ? PERCENT_RUN.exec(text)?.[0] : undefined;
    let taken = 0;
    if (run) {
      out.copy(copied, i);
      pushPercentRun(out, Buffer.from(run.replaceAll('%', ''), 'hex'), i);
      taken = run.length;
    } else if (char === '\\' && text[i + 1] === 'u' && HEX4.test(text.slice(i + 2, i + 6))) {
      out.copy(copied, i);
      out.push(String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16)), i, i + 6);
      taken = 6;
    } else if (char === '\\' && '/"\\'.includes(text[i + 1] ?? 'none')) {
      out.copy(copied, i);
      out.push(text[i + 1]!, i, i + 2);
      taken = 2;
    } else if (char === '\\' && (text[i + 1] ?? 'none') in SHORT_ESCAPES) {
      // JSON's \n, \t, \r, \b, \f: a line break or control inside a key, spelled short.
      out.copy(copied, i);
      out.push(SHORT_ESCAPES[text[i + 1]!]!, i, i + 2);
      taken = 2;
    }
    if (taken > 0) {
      copied = i + taken;
      ESCAPE_START.lastIndex = copied;
    }
  }
  out.copy(copied, text.length);
  return out;
}

/**
 * Characters that only lay text out: line breaks, tabs, no-break and other spaces but the
 * plain one. A key split by them is still the key to a reader, who joins the pieces.
 */
const LAYOUT_CLASS = '[\\t\\n\\r\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]';
export const EVERY_LAYOUT = new RegExp(LAYOUT_CLASS, 'gu');
/** Whether a text holds such a character (then a split key is looked for too). */
export const HAS_LAYOUT = new RegExp(LAYOUT_CLASS, 'u');
/**
 * What neither reading shows: control characters (tab and line feed too, as layout), invisible
 * format and default-ignorable characters, layout. One class, searched natively: the text
 * between two of them is copied whole.
 */
const REMOVED = new RegExp(`[\\p{Cc}\\p{Cf}\\p{DI}${LAYOUT_CLASS.slice(1, -1)}]`, 'u');

/**
 * The text as one line, in one of two readings, since a key must be found in both: as a
 * terminal shows it (escape sequences act and vanish whole, a terminated control string with
 * its payload), or as the sanitised text shows it (only the control characters themselves
 * removed, what followed them shown). Hidden characters and layout go in both.
 */
export function stripHidden(view: View, reading: 'terminal' | 'sanitised'): View {
  const text = view.text;
  const out = new View(view);
  const removed = new RegExp(REMOVED.source, 'gu');
  const scan: EscapeScan = { unterminatedFrom: Infinity };
  let copied = 0;
  for (let found = removed.exec(text); found; found = removed.exec(text)) {
    const i = found.index;
    out.copy(copied, i);
    const code = text.charCodeAt(i);
    if (reading === 'terminal' && (code === 0x1b || (code >= 0x80 && code <= 0x9f))) {
      copied = afterEscapeSequence(text, i, scan);
    } else {
      copied = i + found[0].length;
    }
    removed.lastIndex = copied;
  }
  out.copy(copied, text.length);
  return out;
}

const UNPLAIN = /[^\x20-\x24\x26-\x5b\x5d-\x7e]/;

/**
 * The forms a secret takes in a reader's view of a text that holds it: at each level of
 * decoding, as a terminal and as the sanitised text show it. The secret itself for most keys;
 * others for a key holding what reads as an escape (%41, \t) or a hidden character.
 */
export function readerForms(secret: string): Set<string> {
  // Printable ASCII without % and \ (most keys): nothing decodes, nothing is hidden.
  return UNPLAIN.test(secret) ? searchReaderForms(secret) : new Set<string>();
}

/** readerForms without its shortcut for plain text (tests check the two agree). */
export function searchReaderForms(secret: string): Set<string> {
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
  const levels = [View.of(text)];
  for (let round = 0; round < 6 && /[%\\]/.test(levels.at(-1)!.text); round++) {
    const decoded = decodeOnce(levels.at(-1)!);
    if (decoded.text === levels.at(-1)!.text) break;
    levels.push(decoded);
  }
  return levels;
}

/** What a scan for a control string's end already found: no terminator from this index on. */
interface EscapeScan {
  unterminatedFrom: number;
}

/** Introducers of a control string (OSC, DCS, SOS, PM, APC), after ESC and as C1 codes. */
const STRING_AFTER_ESC = new Set([']', 'P', 'X', '^', '_']);
const STRING_C1 = new Set([0x9d, 0x90, 0x98, 0x9e, 0x9f]);

/** C0 controls a terminal runs inside a sequence without ending it (not CAN, SUB or ESC). */
const runsInside = (c: number) =>
  (c < 0x20 && c !== 0x18 && c !== 0x1a && c !== 0x1b) || c === 0x7f;
/** CAN and SUB: a terminal drops the sequence they interrupt, and shows nothing of them. */
const cancels = (c: number) => c === 0x18 || c === 0x1a;

/**
 * Where a terminal escape sequence starting at `at` ends, as a terminal's parser reads it
 * (ECMA-48, DEC's VT500 state machine): a CSI (ESC [ or C1 CSI) at its final byte; a control
 * string (OSC, DCS, SOS, PM, APC, by ESC or C1) at BEL or ST (ESC \ or C1 ST), or the end of
 * the text; ESC, intermediates and a final (ESC ( B); any other C1 control alone. Inside a
 * sequence, a C0 control (BEL, BS...) and DEL are run or ignored and the sequence goes on; CAN
 * and SUB end it, shown as nothing. (An outside probe split a key with ESC BEL Z: Z, the
 * sequence's final, vanishes on a terminal.)
 */
function afterEscapeSequence(text: string, at: number, scan: EscapeScan): number {
  const code = text.charCodeAt(at);
  const next = text[at + 1];
  const csi = code === 0x9b || (code === 0x1b && next === '[');
  const controlString = STRING_C1.has(code) || (code === 0x1b && STRING_AFTER_ESC.has(next ?? ''));
  let i = code === 0x1b && (csi || controlString) ? at + 2 : at + 1;
  if (controlString) {
    // Unterminated control strings, one after another, would each scan to the end of the text:
    // once one has, none after it is terminated either.
    const start = i;
    for (; i < text.length && i < scan.unterminatedFrom; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x07 || c === 0x9c || cancels(c)) return i + 1;
      if (c === 0x1b && text[i + 1] === '\\') return i + 2;
    }
    // Unterminated: only its introducer (the sanitised reading shows what follows).
    scan.unterminatedFrom = Math.min(scan.unterminatedFrom, start);
    return code === 0x1b ? at + 2 : at + 1;
  }
  if (code !== 0x1b && !csi) return at + 1; // another C1 control: one character
  // CSI: parameters and intermediates (0x20-0x3f), then a final (0x40-0x7e). ESC: intermediates
  // (0x20-0x2f), then a final (0x30-0x7e).
  const last = csi ? 0x3f : 0x2f;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (runsInside(c)) continue;
    if (cancels(c)) return i + 1;
    // ESC starts a sequence of its own: this one ends before it.
    if (c === 0x1b) return i;
    if (c >= 0x20 && c <= last) continue;
    return i + 1;
  }
  return text.length;
}

/**
 * Whether an escape sequence (or control string) that starts before `at`, within `from..at`,
 * is still open there: a terminal would take what follows as part of it. An unterminated
 * control string counts as open.
 */
export function sequenceOpenAt(text: string, from: number, at: number): boolean {
  // eslint-disable-next-line no-control-regex
  const starts = /[\x1b\x80-\x9f]/g;
  // Searched within the window only: a search on from `from` in the whole text would run to its
  // end on every cut of a long clean text (it did: masking a page took ten times as long).
  const window = text.slice(from, at);
  for (const found of window.matchAll(starts)) {
    const start = from + found.index;
    const code = text.charCodeAt(start);
    const next = text[start + 1];
    const controlString =
      STRING_C1.has(code) || (code === 0x1b && STRING_AFTER_ESC.has(next ?? ''));
    if (controlString) {
      const rest = text.slice(start + 1, at);
      // eslint-disable-next-line no-control-regex
      if (!/[\x07\x9c\x18\x1a]|\x1b\\/.test(rest)) return true;
      continue;
    }
    if (afterEscapeSequence(text, start, { unterminatedFrom: Infinity }) > at) return true;
  }
  return false;
}
