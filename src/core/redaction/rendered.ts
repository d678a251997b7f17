import type { RunSearch } from './secret-runs.js';

/**
 * What a terminal shows of a text that moves its cursor over what it wrote: characters written
 * later overwrite those before them, so pieces of a key no plain reading joins can stand side
 * by side on the screen (outside probes wrote `key1X\bkey2`, `piece\x1b[2D`, pieces placed by
 * column, by row and column, by saving and restoring the cursor, by tab stops, after wide
 * characters). The screen is drawn as cells, each remembering which character of the text it
 * shows. The moves drawn: backspace, carriage return, line feed, tab (stops every 8 columns),
 * CSI up, down, forward, back, column, row and position (A B C D E F G H f d ` a e), save and
 * restore (ESC 7 and 8, CSI s and u); a wide character takes two columns. A move it does not
 * know (inserting or deleting characters, scrolling regions) is not drawn: docs/profiles.md
 * says what is masked, and a terminal petstore writes to itself never gets raw controls.
 */

/** A control that moves the cursor other than by writing or a line feed. */
// eslint-disable-next-line no-control-regex
export const MOVES_CURSOR = /[\x08\t]|\r(?!\n)|\x1b[78]|(?:\x1b\[|\x9b)[\d;]*[ABCDEFGHfd`aesu]/;

interface Cell {
  char: string;
  source: number;
}

/** East Asian wide and full-width characters, and emoji: two columns on a terminal. */
const WIDE =
  /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]|[\u{1f300}-\u{1faff}\u{20000}-\u{3fffd}]/u;

/** The screen as a terminal draws the text: rows of cells, each with the index it shows. */
function draw(text: string): Cell[][] {
  const rows: Cell[][] = [[]];
  let row = 0;
  let column = 0;
  let saved = { row: 0, column: 0 };
  const at = (r: number) => {
    while (rows.length <= r) rows.push([]);
    return rows[r]!;
  };
  const put = (char: string, source: number, width: number) => {
    const line = at(row);
    while (line.length < column) line.push({ char: ' ', source: -1 });
    line[column] = { char, source };
    // The second column of a wide character shows nothing of its own.
    if (width === 2) line[column + 1] = { char: '', source: -1 };
    column += width;
  };
  for (let i = 0; i < text.length; i++) {
    const code = text.codePointAt(i)!;
    const char = String.fromCodePoint(code);
    if (char === '\n') {
      // A terminal's output processing (onlcr) takes a line feed to the next line's start.
      row++;
      column = 0;
    } else if (char === '\r') column = 0;
    else if (code === 0x08) column = Math.max(0, column - 1);
    else if (char === '\t') column = (Math.floor(column / 8) + 1) * 8;
    else if (code === 0x1b && (text[i + 1] === '7' || text[i + 1] === '8')) {
      if (text[i + 1] === '7') saved = { row, column };
      else ({ row, column } = saved);
      i++;
    } else if (code === 0x1b || code === 0x9b) {
      // eslint-disable-next-line no-control-regex
      const csi = /^(?:\x1b\[|\x9b)([\d;]*)([\x40-\x7e])/.exec(text.slice(i, i + 32));
      if (csi) {
        const [first, second] = csi[1]!.split(';').map((part) => Number(part) || 1);
        const n = first ?? 1;
        const final = csi[2]!;
        if (final === 'C' || final === 'a') column += n;
        else if (final === 'D') column = Math.max(0, column - n);
        else if (final === 'G' || final === '`') column = n - 1;
        else if (final === 'A' || final === 'F') row = Math.max(0, row - n);
        else if (final === 'B' || final === 'e' || final === 'E') row += n;
        else if (final === 'd') row = n - 1;
        else if (final === 'H' || final === 'f') [row, column] = [n - 1, (second ?? 1) - 1];
        else if (final === 's') saved = { row, column };
        else if (final === 'u') ({ row, column } = saved);
        if (final === 'E' || final === 'F') column = 0;
        i += csi[0].length - 1;
      }
    } else if (code >= 0x20 && code !== 0x7f && !(code >= 0x80 && code <= 0x9f)) {
      put(char, i, WIDE.test(char) ? 2 : 1);
    }
    if (code > 0xffff) i++;
  }
  return rows;
}

/**
 * The text with every character a terminal would show as part of a run of a secret replaced
 * by `*` (a wide one by `**`), so the cursor's moves draw the same cells, now masked.
 */
export function maskDrawn(text: string, search: RunSearch): string {
  const hidden = new Set<number>();
  for (const line of draw(text)) {
    // Cells and the text searched, one for one: a wide character's second cell, or a
    // character of two code units, as a blank (no key holds one).
    const shown = line.map((cell) => (cell.char.length === 1 ? cell.char : ' ')).join('');
    for (const run of search.runs(shown)) {
      for (let cell = run.start; cell < run.end; cell++) {
        const source = line[cell]!.source;
        if (source >= 0) hidden.add(source);
      }
    }
  }
  if (hidden.size === 0) return text;
  let masked = '';
  for (let i = 0; i < text.length; i++) {
    if (!hidden.has(i)) masked += text[i]!;
    else {
      const code = text.codePointAt(i)!;
      masked += code > 0xffff || WIDE.test(String.fromCodePoint(code)) ? '**' : '*';
      if (code > 0xffff) i++;
    }
  }
  return masked;
}
