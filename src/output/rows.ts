import { stringifyJson } from '../core/json.js';
import type { Column } from './columns.js';
import type { OutputFormat } from './format.js';
import { csvField, tsvField } from './cells.js';
import type { Query } from './query.js';

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

/** The row as JSON: what the service sent, or only the chosen fields, in their order. */
export function projectRow<Row>(row: Row, fields: readonly string[] | undefined): unknown {
  if (fields === undefined || typeof row !== 'object' || row === null) return row;
  const record = row as Record<string, unknown>;
  return Object.fromEntries(
    fields.filter((field) => field in record).map((field) => [field, record[field]]),
  );
}

/** A format that writes one row per line, so rows can be written (and counted) one by one. */
export type LineFormat = 'json' | 'ndjson' | 'csv' | 'tsv';

/**
 * The header and the line of each row in a format of one row per line. JSON is written as
 * JSON lines here, one compact object each: what a run that prints as it goes can keep whole.
 */
export function lineFormat<Row>(
  columns: readonly Column<Row>[],
  format: LineFormat,
  fields?: readonly string[],
): { header: string; line: (row: Row) => string } {
  if (format === 'json' || format === 'ndjson') {
    return { header: '', line: (row) => stringifyJson(projectRow(row, fields)) + '\n' };
  }
  // RFC 4180: CRLF between records, as spreadsheets expect.
  const [separator, field, eol] =
    format === 'csv' ? [',', csvField, '\r\n'] : ['\t', tsvField, '\n'];
  return {
    header: columns.map((c) => c.header).join(separator) + eol,
    line: (row) => columns.map((c) => field(c.value(row))).join(separator) + eol,
  };
}

/**
 * Rows through --query: in NDJSON each row's result as it comes (nothing for a null one), in
 * any other format the whole list's, as JSON, once it is complete (the list is buffered).
 */
function queried<Row>(query: Query, options: RowsOptions): RowWriter<Row> {
  const { write, fields, pretty } = options;
  const rows: unknown[] = [];
  let count = 0;
  const perRow = options.format === 'ndjson';
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

function indent(text: string): string {
  return text.replace(/^/gm, '  ');
}

/**
 * Opens a writer for the format. A JSON array that fails part way is left unclosed on
 * purpose: a parser then refuses it rather than taking a short list for the whole one.
 */
export async function openRows<Row>(
  columns: readonly Column<Row>[],
  options: RowsOptions,
): Promise<RowWriter<Row>> {
  const { write, fields, pretty } = options;
  if (options.query) return queried(options.query, options);
  let count = 0;
  // A header row once, before the first row, or alone for an empty list.
  const delimited = (format: 'csv' | 'tsv') => {
    const lines = lineFormat(columns, format, fields);
    let header = lines.header;
    const takeHeader = () => {
      const text = header;
      header = '';
      return text;
    };
    return {
      write(rows: readonly Row[]) {
        if (rows.length === 0) return;
        let text = takeHeader();
        for (const row of rows) text += lines.line(row);
        count += rows.length;
        write(text);
      },
      end() {
        const text = takeHeader();
        if (text !== '') write(text);
      },
    };
  };
  let writer: Omit<RowWriter<Row>, 'count' | 'printed'>;
  switch (options.format) {
    case 'json':
      writer = {
        write(rows) {
          let text = '';
          for (const row of rows) {
            const item = stringifyJson(projectRow(row, fields), pretty);
            const start = count++ === 0 ? '[' : ',';
            text += pretty ? `${start}\n${indent(item)}` : `${start}${item}`;
          }
          if (text !== '') write(text);
        },
        end() {
          write(count === 0 ? '[]\n' : pretty ? '\n]\n' : ']\n');
        },
      };
      break;
    case 'ndjson':
      writer = {
        write(rows) {
          let text = '';
          for (const row of rows) text += stringifyJson(projectRow(row, fields)) + '\n';
          count += rows.length;
          if (text !== '') write(text);
        },
        end() {},
      };
      break;
    case 'csv':
    case 'tsv':
      writer = delimited(options.format);
      break;
    case 'table': {
      const { TableWriter } = await import('./table.js');
      const table = new TableWriter(columns, { color: options.color, width: options.width });
      writer = {
        write(rows) {
          count += rows.length;
          table.write(rows, (text) => {
            if (text !== '') write(text);
          });
        },
        end() {},
      };
      break;
    }
  }
  return {
    // A window at a time, so what is built before it is written stays bounded.
    write: (rows) => {
      if (rows.length <= WRITE_WINDOW) writer.write(rows);
      else {
        for (let start = 0; start < rows.length; start += WRITE_WINDOW) {
          writer.write(rows.slice(start, start + WRITE_WINDOW));
        }
      }
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
