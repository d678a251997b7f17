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

/** The text cut to `width` columns keeping its end (a path's file name), the ellipsis first. */
export function fittedEnd(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  const room = Math.max(0, width - ELLIPSIS.length);
  if (PRINTABLE_ASCII.test(text)) return ELLIPSIS + text.slice(text.length - room);
  graphemes ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  const kept: string[] = [];
  let used = 0;
  for (const { segment } of [...graphemes.segment(text)].reverse()) {
    const columns = displayWidth(segment);
    if (used + columns > room) break;
    kept.unshift(segment);
    used += columns;
  }
  return ELLIPSIS + kept.join('');
}

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

/** Splits text at a width (in columns), as a reader would: at spaces, else mid-word. */
export function wrapped(text: string, width: number): string[] {
  if (displayWidth(text) <= width) return [text];
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const joined = line === '' ? word : `${line} ${word}`;
    if (displayWidth(joined) <= width) {
      line = joined;
      continue;
    }
    if (line !== '') lines.push(line);
    let rest = word;
    // A word longer than the column (a path, a URL): cut after a / . - , : where one falls
    // in the second half of the line, else where it reaches the edge.
    while (displayWidth(rest) > width) {
      const edge = fitted(rest, width + ELLIPSIS.length).slice(0, -ELLIPSIS.length) || rest[0]!;
      const seam = Math.max(...['/', '.', '-', ',', ':'].map((mark) => edge.lastIndexOf(mark)));
      const head = seam >= edge.length / 2 ? edge.slice(0, seam + 1) : edge;
      lines.push(head);
      rest = rest.slice(head.length);
    }
    line = rest;
  }
  if (line !== '') lines.push(line);
  return lines;
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

  /**
   * One row: each cell cut (or, in a wrapping column, wrapped) and padded to its column,
   * painted; as many lines as its tallest cell; no blanks at the end of a line.
   */
  private line(cells: Cell[], widths: number[], style: (text: string) => string): string {
    const shown = cells.map((cell, index) =>
      this.columns[index]?.wrap && this.options.width !== undefined
        ? wrapped(cell.text, widths[index]!)
        : [
            this.columns[index]?.keepEnd
              ? fittedEnd(cell.text, widths[index]!)
              : fitted(cell.text, widths[index]!),
          ],
    );
    const height = Math.max(...shown.map((parts) => parts.length));
    const lines: string[] = [];
    for (let at = 0; at < height; at++) {
      let text = '';
      let pending = '';
      cells.forEach((cell, index) => {
        const width = widths[index]!;
        const part = shown[index]![at] ?? '';
        const painted = style(cell.tone ? this.paint[cell.tone](part) : part);
        if (part !== '') {
          text += pending + painted;
          pending = '';
        }
        pending += ' '.repeat(width - displayWidth(part));
        if (index < cells.length - 1) pending += GAP;
      });
      lines.push(text);
    }
    return lines.join('\n');
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

  /**
   * Narrows the shrinkable and wrapping columns until the table fits the terminal: always the
   * widest of them by one column, so they end as even as their text allows.
   */
  private fit(widths: number[]): void {
    const { width } = this.options;
    if (width === undefined) return;
    let excess = widths.reduce((sum, w) => sum + w, 0) + GAP.length * (widths.length - 1) - width;
    const narrowable = (first: boolean) =>
      this.columns
        .map((column, index) =>
          (column.shrinkable || column.wrap) && (column.yieldsFirst === true) === first
            ? index
            : -1,
        )
        .filter((index) => index >= 0);
    // What a person reads least (keys, paths) gives way before what they read (names).
    for (const group of [narrowable(true), narrowable(false)]) {
      while (excess > 0) {
        let widest = -1;
        for (const index of group) {
          if (
            widths[index]! > MIN_SHRUNK_WIDTH &&
            (widest < 0 || widths[index]! > widths[widest]!)
          ) {
            widest = index;
          }
        }
        if (widest < 0) break;
        widths[widest] = widths[widest]! - 1;
        excess--;
      }
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

/**
 * One record as `field: value` lines, one field per line, the values aligned: a record read
 * whole (a `show` command) at any terminal width. A value too long for the terminal goes on
 * under itself, wrapped, never cut; absent, it shows its placeholder.
 */
export function renderRecord<Row>(
  row: Row,
  columns: readonly Column<Row>[],
  options: TableOptions,
): string {
  const chalk = new Chalk({ level: options.color ? 1 : 0 });
  const paint = { good: chalk.green, warn: chalk.yellow, muted: chalk.dim };
  const labelWidth = Math.max(...columns.map((column) => column.header.length)) + 2;
  // A terminal too narrow for label and value side by side still gets a readable value.
  const room = Math.max(MIN_SHRUNK_WIDTH * 2, (options.width ?? Infinity) - labelWidth);
  const lines: string[] = [];
  for (const column of columns) {
    const value = column.value(row);
    const absent = value === undefined || value === null;
    const text = absent ? (column.placeholder ?? '') : tableCell(value);
    const tone = absent ? 'muted' : options.color ? column.tone?.(row) : undefined;
    const parts = Number.isFinite(room) ? wrapped(text, room) : [text];
    parts.forEach((part, index) => {
      const label = index === 0 ? `${column.header}:`.padEnd(labelWidth) : ' '.repeat(labelWidth);
      lines.push((label + (tone === undefined ? part : paint[tone](part))).trimEnd());
    });
  }
  return lines.join('\n') + '\n';
}
