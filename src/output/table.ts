import { Chalk } from 'chalk';
import Table from 'cli-table3';
import { columnTitle, type CellTone, type Column } from './columns.js';
import { tableCell } from './cells.js';

/** Two spaces between columns and no rules: the compact table of gh or kubectl. */
const GAP = '  ';
const NO_RULES = Object.fromEntries(
  [
    'top',
    'top-mid',
    'top-left',
    'top-right',
    'bottom',
    'bottom-mid',
    'bottom-left',
    'bottom-right',
    'left',
    'left-mid',
    'mid',
    'mid-mid',
    'right',
    'right-mid',
  ].map((name) => [name, '']),
);
/** A shortened column keeps at least this many characters. */
const MIN_SHRUNK_WIDTH = 8;

export interface TableOptions {
  color: boolean;
  /** The terminal's width: shrinkable columns are cut to fit it. Absent when piped. */
  width?: number | undefined;
}

/**
 * Renders rows batch by batch (a page at a time) into one aligned table: the header comes with
 * the first batch, and a column only ever widens, so later batches stay aligned unless they
 * hold longer text. On a terminal, shrinkable columns are cut with an ellipsis to fit it.
 */
export class TableWriter<Row> {
  private widths: number[] | undefined;
  private readonly paint: Record<CellTone, (text: string) => string>;
  private readonly bold: (text: string) => string;

  constructor(
    private readonly columns: readonly Column<Row>[],
    private readonly options: TableOptions,
  ) {
    // Colour is decided by us, not by chalk's or cli-table3's own detection (both ignore
    // NO_COLOR, and cli-table3 colours pipes), so both are told exactly what to do.
    const chalk = new Chalk({ level: options.color ? 1 : 0 });
    this.paint = { good: chalk.green, warn: chalk.yellow, muted: chalk.dim };
    this.bold = chalk.bold;
  }

  /** The text of a batch, ending with a newline; the header is part of the first one. */
  rows(rows: readonly Row[]): string {
    const head = this.widths === undefined ? this.columns.map((c) => columnTitle(c.header)) : [];
    const cells = rows.map((row) => this.columns.map((column) => this.cell(column, row)));
    const natural = this.render(head, cells).widths;
    const widths = natural.map((width, index) => Math.max(width, this.widths?.[index] ?? 0));
    this.fit(widths);
    this.widths = widths;
    const text = this.render(
      head.map((title) => this.bold(title)),
      cells,
      widths,
    ).text;
    return text === '' ? '' : `${text}\n`;
  }

  private cell(column: Column<Row>, row: Row): string {
    const value = column.value(row);
    if ((value === undefined || value === null) && column.placeholder !== undefined) {
      return this.paint.muted(column.placeholder);
    }
    const text = tableCell(value);
    const tone = this.options.color ? column.tone?.(row) : undefined;
    return tone ? this.paint[tone](text) : text;
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

  private render(
    head: string[],
    cells: string[][],
    colWidths?: number[],
  ): { text: string; widths: number[] } {
    const table = new Table({
      head,
      chars: { ...NO_RULES, middle: GAP },
      style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0 },
      ...(colWidths ? { colWidths, truncate: '…' } : {}),
    });
    table.push(...cells);
    // cli-table3 pads every cell, the last one too: trailing blanks are noise in a terminal.
    const text = table.toString().replace(/ +$/gm, '');
    return { text, widths: (table.options.colWidths as number[] | undefined) ?? [] };
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
