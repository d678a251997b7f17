/** A column of human output: its header, how to get the cell from a row, and its colour. */
export interface Column<Row> {
  header: string;
  value: (row: Row) => unknown;
  /** Optional colour for the cell text, applied only when colour is on. */
  tone?: (row: Row) => CellTone | undefined;
}

export type CellTone = 'good' | 'warn' | 'muted';
