import { Chalk } from 'chalk';
import tableUtils from 'cli-table3/src/utils.js';
import { columnTitle, type CellTone, type Column } from './columns.js';
import { tableCell } from './cells.js';

/** Two spaces between columns and no rules: the compact table of gh or kubectl. */
const GAP = '  ';
/** A shortened column keeps at least this many characters. */
const MIN_SHRUNK_WIDTH = 8;
/** Rows measured and written together: memory stays bounded however many rows come at once. */
const WINDOW = 1000;
const ELLIPSIS = '…';
/** Most cells are plain ASCII, whose width is their length: measured without a regex engine. */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

export interface TableOptions {
  color: boolean;
  /** The terminal's width: shrinkable columns are cut to fit it. Absent when piped. */
  width?: number | undefined;
}

/** A cell as measured: its text (one sanitised line) and how it is painted. */
interface Cell {
  text: string;
  tone: CellTone | undefined;
}

/** How many columns of a terminal the text takes (wide characters count two). */
function displayWidth(text: string): number {
  return PRINTABLE_ASCII.test(text) ? text.length : tableUtils.strlen(text);
}

let graphemes: Intl.Segmenter | undefined;

/**
 * The text cut to `width` columns, with an ellipsis when it was longer. Cut between whole
 * characters as a reader sees them (grapheme clusters: an emoji, a letter with its accents),
 * never inside a surrogate pair, and measured in columns, not in UTF-16 units.
 */
function fitted(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  const room = Math.max(0, width - ELLIPSIS.length);
  if (PRINTABLE_ASCII.test(text)) return text.slice(0, room) + ELLIPSIS;
  graphemes ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  let kept = '';
  let used = 0;
  for (const { segment } of graphemes.segment(text)) {
    const columns = displayWidth(segment);
    if (used + columns > room) break;
    kept += segment;
    used += columns;
  }
  // A first cluster wider than the room (19 joining jamo are one): cut it by code points.
  if (kept === '' && room > 0) {
    for (const point of text) {
      const columns = displayWidth(point);
      if (used + columns > room) break;
      kept += point;
      used += columns;
    }
  }
  return kept + ELLIPSIS;
}

/**
 * Renders rows batch by batch (a page at a time) into one aligned table: the header comes with
 * the first batch, and a column only ever widens, so later batches stay aligned unless they
 * hold longer text. On a terminal, shrinkable columns are cut with an ellipsis to fit it.
 * Linear in the rows: each window of rows is measured and written once (cli-table3 measures
 * the cells that are not plain ASCII; its Table, at some 200 µs a row, is not used).
 */
export class TableWriter<Row> {
  private widths: number[] | undefined;
  private readonly paint: Record<CellTone, (text: string) => string>;
  private readonly bold: (text: string) => string;

  constructor(
    private readonly columns: readonly Column<Row>[],
    private readonly options: TableOptions,
  ) {
    // Colour is decided by us, not by chalk's own detection (it ignores NO_COLOR).
    const chalk = new Chalk({ level: options.color ? 1 : 0 });
    this.paint = { good: chalk.green, warn: chalk.yellow, muted: chalk.dim };
    this.bold = chalk.bold;
  }

  /** Writes the rows, each line ending with a newline; the header comes before the first. */
  write(rows: readonly Row[], write: (text: string) => void): void {
    if (this.widths === undefined && rows.length === 0) {
      write(this.window([]));
      return;
    }
    for (let start = 0; start < rows.length; start += WINDOW) {
      write(this.window(rows.slice(start, start + WINDOW)));
    }
  }

  /** The text of a batch (for tests and small tables). */
  rows(rows: readonly Row[]): string {
    let text = '';
    this.write(rows, (part) => (text += part));
    return text;
  }

  private window(rows: readonly Row[]): string {
    const head: Cell[] | undefined =
      this.widths === undefined
        ? this.columns.map((column) => ({ text: columnTitle(column.header), tone: undefined }))
        : undefined;
    const cells = rows.map((row) => this.columns.map((column) => this.cell(column, row)));
    const widths = this.columns.map((_column, index) => this.widths?.[index] ?? 0);
    for (const line of head ? [head, ...cells] : cells) {
      line.forEach((cell, index) => {
        widths[index] = Math.max(widths[index]!, displayWidth(cell.text));
      });
    }
    this.fit(widths);
    this.widths = widths;
    const lines = cells.map((line) => this.line(line, widths, (text) => text));
    if (head) lines.unshift(this.line(head, widths, this.bold));
    return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
  }

  /** One row: each cell cut and padded to its column, painted; no blanks at the end. */
  private line(cells: Cell[], widths: number[], style: (text: string) => string): string {
    let text = '';
    let pending = '';
    cells.forEach((cell, index) => {
      const width = widths[index]!;
      const shown = fitted(cell.text, width);
      const painted = style(cell.tone ? this.paint[cell.tone](shown) : shown);
      if (shown !== '') {
        text += pending + painted;
        pending = '';
      }
      pending += ' '.repeat(width - displayWidth(shown));
      if (index < cells.length - 1) pending += GAP;
    });
    return text;
  }

  private cell(column: Column<Row>, row: Row): Cell {
    const value = column.value(row);
    if ((value === undefined || value === null) && column.placeholder !== undefined) {
      return { text: column.placeholder, tone: 'muted' };
    }
    return {
      text: tableCell(value),
      tone: this.options.color ? column.tone?.(row) : undefined,
    };
  }

  /** Cuts the shrinkable columns, widest first, until the table fits the terminal. */
  private fit(widths: number[]): void {
    const { width } = this.options;
    if (width === undefined) return;
    let excess = widths.reduce((sum, w) => sum + w, 0) + GAP.length * (widths.length - 1) - width;
    const shrinkable = this.columns
      .map((column, index) => (column.shrinkable ? index : -1))
      .filter((index) => index >= 0)
      .sort((a, b) => widths[b]! - widths[a]!);
    for (const index of shrinkable) {
      if (excess <= 0) return;
      const cut = Math.min(excess, widths[index]! - MIN_SHRUNK_WIDTH);
      if (cut <= 0) continue;
      widths[index] = widths[index]! - cut;
      excess -= cut;
    }
  }
}

/** A whole table at once. */
export function renderTable<Row>(
  rows: readonly Row[],
  columns: readonly Column<Row>[],
  options: TableOptions,
): string {
  return new TableWriter(columns, options).rows(rows);
}
