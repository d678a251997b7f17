import { HELP_MAX_WIDTH } from '../core/contract.js';
import { wrapText } from '../core/wrap-text.js';

/** The width help is laid out at: the terminal's, at most HELP_MAX_WIDTH (80), 80 without one. */
export function helpWidth(columns: number | undefined): number {
  return Math.min(columns ?? HELP_MAX_WIDTH, HELP_MAX_WIDTH);
}

/** Where a command line may break: a space outside quotes, before the width. */
function breakAt(line: string, width: number): number {
  let quote: string | undefined;
  let at = -1;
  for (let i = 0; i < line.length && i < width; i++) {
    const char = line[i]!;
    if (quote !== undefined) {
      if (char === quote) quote = undefined;
    } else if (char === "'" || char === '"') quote = char;
    else if (char === ' ' && /\S/.test(line.slice(0, i))) at = i;
  }
  return at;
}

/**
 * An example too wide for the width, continued on the next lines as a shell continues one
 * (` \`), broken only at spaces outside quotes: it still runs when pasted.
 */
function wrapExample(line: string, width: number): string[] {
  const indent = ' '.repeat(/^ */.exec(line)![0].length + 4);
  const lines: string[] = [];
  let rest = line;
  while (rest.length > width) {
    const at = breakAt(rest, width - 2);
    if (at <= indent.length) break;
    lines.push(`${rest.slice(0, at)} \\`);
    rest = indent + rest.slice(at + 1);
  }
  lines.push(rest);
  return lines;
}

/**
 * Help as it fits `width` columns: each line wider is broken, prose at spaces (at its own
 * indent), an example (`$ petstore ...`) as a shell continues one. Commander wraps what it
 * lays out; this catches the rest (what a command adds after its help, help topics), whatever
 * the terminal's width.
 */
export function fitToWidth(text: string, width: number): string {
  return text
    .split('\n')
    .flatMap((line) => {
      if (line.length <= width) return [line];
      return /^\s*\$ /.test(line) ? wrapExample(line, width) : wrapText(line, width);
    })
    .join('\n');
}

/**
 * The text a command adds after its help, its prose paragraphs (runs of lines that start at
 * the margin) joined into one line each, for fitToWidth to wrap at the width it is shown at;
 * headings ("Examples:") and indented lines (examples) stay as written.
 */
export function helpProse(text: string): string {
  return text
    .split('\n\n')
    .map((block) => {
      // Blank lines before a block (the text's first is one) are kept, and not read as text.
      const blank = /^\n*/.exec(block)![0];
      const lines = block.slice(blank.length).split('\n');
      const prose = lines.every((line) => line !== '' && !/^\s/.test(line));
      const heading = lines.length === 1 && lines[0]!.endsWith(':');
      // A paragraph on one line: help is fitted to the terminal as it is written (fitToWidth).
      return blank + (prose && !heading ? lines.join(' ') : lines.join('\n'));
    })
    .join('\n\n');
}
