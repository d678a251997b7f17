import type { RunSearch } from './secret-runs.js';

/**
 * What a terminal shows of a text that moves its cursor back over what it wrote (backspace, a
 * carriage return alone, CSI cursor left, right or to a column): characters written later
 * overwrite those before them, so pieces of a key no plain reading joins can stand side by
 * side on the screen (an outside probe wrote `key1X\bkey2`, and `piece\x1b[2D`). Each line is
 * drawn as cells, each cell remembering which character of the text it shows.
 */

/** Backspace, CR not ending a line, or a CSI that moves the cursor along the line. */
// eslint-disable-next-line no-control-regex
export const MOVES_CURSOR = /\x08|\r(?!\n)|(?:\x1b\[|\x9b)[\d;]*[CDG`a]/;

interface Cell {
  char: string;
  source: number;
}

/** The lines as a terminal draws them, each cell with the index of the character it shows. */
function draw(text: string): Cell[][] {
  const lines: Cell[][] = [[]];
  let line = lines[0]!;
  let column = 0;
  const put = (char: string, source: number) => {
    while (line.length < column) line.push({ char: ' ', source: -1 });
    line[column] = { char, source };
    column++;
  };
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    const code = text.charCodeAt(i);
    if (char === '\n') {
      line = [];
      lines.push(line);
      column = 0;
    } else if (char === '\r') column = 0;
    else if (code === 0x08) column = Math.max(0, column - 1);
    else if (code === 0x1b || code === 0x9b) {
      // eslint-disable-next-line no-control-regex
      const csi = /^(?:\x1b\[|\x9b)([\d;]*)([\x40-\x7e])/.exec(text.slice(i, i + 32));
      if (csi) {
        const count = Math.max(1, Number(csi[1]!.split(';')[0]) || 1);
        const final = csi[2]!;
        if (final === 'C' || final === 'a') column += count;
        else if (final === 'D') column = Math.max(0, column - count);
        else if (final === 'G' || final === '`') column = count - 1;
        i += csi[0].length - 1;
      }
    } else if (code >= 0x20 && code !== 0x7f && !(code >= 0x80 && code <= 0x9f)) put(char, i);
  }
  return lines;
}

/**
 * The text with every character a terminal would show as part of a run of a secret replaced
 * by `*`, one for one, so the cursor's moves draw the same cells, now masked.
 */
export function maskDrawn(text: string, search: RunSearch): string {
  const hidden = new Set<number>();
  for (const line of draw(text)) {
    const shown = line.map((cell) => cell.char).join('');
    for (const run of search.runs(shown)) {
      for (let at = run.start; at < run.end; at++) {
        const source = line[at]!.source;
        if (source >= 0) hidden.add(source);
      }
    }
  }
  if (hidden.size === 0) return text;
  let masked = '';
  for (let i = 0; i < text.length; i++) masked += hidden.has(i) ? '*' : text[i]!;
  return masked;
}
