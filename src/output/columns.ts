/** A column of human output: its header, how to get the cell from a row, and its colour. */
export interface Column<Row> {
  /** The field name: the CSV/TSV header and what --fields selects. */
  header: string;
  value: (row: Row) => unknown;
  /** Optional colour for the cell text, applied only when colour is on. */
  tone?: (row: Row) => CellTone | undefined;
  /** Shown (dim) in a table when the value is absent, so an empty cell reads as "none". */
  placeholder?: string;
  /** Long text the table may shorten with an ellipsis to fit a terminal (never when piped). */
  shrinkable?: boolean;
  /**
   * Shortened before the other shrinkable columns: what a person reads least (a key, a path),
   * so the names they read stay whole as long as the terminal allows.
   */
  yieldsFirst?: boolean;
  /** Shortened, keep the end (a path's file name), the ellipsis first. */
  keepEnd?: boolean;
  /**
   * Text a person needs whole (a fix to run): on a terminal too narrow for it, wrapped onto
   * more lines of the row, never cut.
   */
  wrap?: boolean;
}

export type CellTone = 'good' | 'warn' | 'muted';

/** A table's column title: "categoryId" -> "CATEGORY ID". */
export function columnTitle(header: string): string {
  return header.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toUpperCase();
}

/**
 * The columns --fields names, in its order, matched exactly. parseFields has already refused
 * unknown names (exit 2, listing the known ones), so one here is a bug.
 */
export function pickColumns<Row>(
  columns: readonly Column<Row>[],
  fields: readonly string[] | undefined,
): Column<Row>[] {
  if (fields === undefined) return [...columns];
  return fields.map((field) => {
    const column = columns.find((candidate) => candidate.header === field);
    if (!column) throw new Error(`unknown field ${field}`);
    return column;
  });
}
