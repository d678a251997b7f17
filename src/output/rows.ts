import { stringifyJson } from '../core/json.js';
import type { Column } from './columns.js';
import { formatSpec, projectRow, type FormatWriter, type OutputFormat } from './formats.js';
import type { Query } from './query.js';

export { projectRow } from './formats.js';

export interface RowsOptions {
  format: OutputFormat;
  color: boolean;
  /** Pretty JSON on a terminal, compact when piped. */
  pretty: boolean;
  /** The terminal's width, for tables; absent when stdout is not a terminal. */
  width?: number | undefined;
  /** The fields --fields chose, in order (the columns passed are already those). */
  fields?: readonly string[] | undefined;
  write: (text: string) => void;
  /** --query: what is printed is its result, as JSON (a list whole, or each row in NDJSON). */
  query?: Query | undefined;
}

/** Rows written as they arrive (a page at a time), in any output format. */
export interface RowWriter<Row> {
  write(rows: readonly Row[]): void;
  /** Completes the output (a JSON array's closing bracket). Not called after a failure. */
  end(): void;
  /** How many rows were given. */
  readonly count: number;
  /** How many of them are on stdout already (none of a list --query buffers until its end). */
  readonly printed: number;
}

/**
 * Rows through --query: row by row where the format says so (NDJSON: each row's result as it
 * comes, nothing for a null one), else the whole list's result, as JSON, once it is complete.
 */
function queried<Row>(query: Query, options: RowsOptions): RowWriter<Row> {
  const { write, fields, pretty } = options;
  const rows: unknown[] = [];
  let count = 0;
  const perRow = formatSpec(options.format).jsonPerRow;
  return {
    write(batch) {
      for (const row of batch) {
        const value = projectRow(row, fields);
        if (!perRow) rows.push(value);
        else {
          const result = query(value);
          if (result !== null && result !== undefined) write(stringifyJson(result) + '\n');
        }
      }
      count += batch.length;
    },
    end() {
      if (!perRow) write(stringifyJson(query(rows), pretty) + '\n');
    },
    get count() {
      return count;
    },
    get printed() {
      return perRow ? count : 0;
    },
  };
}

/** Rows formatted and written together, however many arrive at once. */
const WRITE_WINDOW = 1000;

/**
 * Opens a writer for the format. A JSON array that fails part way is left unclosed on
 * purpose: a parser then refuses it rather than taking a short list for the whole one.
 */
export async function openRows<Row>(
  columns: readonly Column<Row>[],
  options: RowsOptions,
): Promise<RowWriter<Row>> {
  if (options.query) return queried(options.query, options);
  const writer: FormatWriter<Row> = await formatSpec(options.format).open(columns, options);
  let count = 0;
  return {
    // A window at a time, so what is built before it is written stays bounded.
    write: (rows) => {
      if (rows.length <= WRITE_WINDOW) writer.write(rows);
      else {
        for (let start = 0; start < rows.length; start += WRITE_WINDOW) {
          writer.write(rows.slice(start, start + WRITE_WINDOW));
        }
      }
      count += rows.length;
    },
    end: () => writer.end(),
    get count() {
      return count;
    },
    get printed() {
      return count;
    },
  };
}
