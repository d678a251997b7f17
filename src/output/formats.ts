import { stringifyJson } from '../core/json.js';
import { csvField, tsvField } from './cells.js';
import type { Column } from './columns.js';

/**
 * The output formats, one entry each: everything else derives from this registry (the
 * --output choices and their help, the reference table, the row writers, which formats print
 * one row per line, and the form errors take beside them). A new format is one entry here.
 */

/** Writes rows as they arrive, a page at a time; `end` completes the output. */
export interface FormatWriter<Row> {
  write(rows: readonly Row[]): void;
  end(): void;
}

export interface WriterOptions {
  color: boolean;
  pretty: boolean;
  width?: number | undefined;
  fields?: readonly string[] | undefined;
  write: (text: string) => void;
}

/** A format of one row per line: what precedes the rows (a header), and each row's line. */
export interface LineForm<Row> {
  header: string;
  line: (row: Row) => string;
}

export interface FormatSpec {
  /** What it writes, for the reference and the manual. */
  meaning: string;
  /** Its data is JSON: a stderr that is no terminal then carries errors as JSON too. */
  json: boolean;
  /** Read by people (a table): the place for notices such as "No animals." on stdout's side. */
  forPeople: boolean;
  /** Rows in columns: a list of flat objects is shown in them (`api`). */
  columns: boolean;
  /**
   * One record alone: a list of one row, one JSON object (pretty on a terminal), or one JSON
   * line.
   */
  record: 'list' | 'object' | 'line';
  /**
   * Each row is a JSON value of its own (NDJSON): a list is never one array, and --query
   * applies to each row as it comes (else to the whole list, buffered).
   */
  jsonPerRow: boolean;
  /** One row per line, so a run can write and account for rows one by one; else undefined. */
  lines?: <Row>(columns: readonly Column<Row>[], fields?: readonly string[]) => LineForm<Row>;
  /** Opens a writer of rows in this format. */
  open<Row>(columns: readonly Column<Row>[], options: WriterOptions): Promise<FormatWriter<Row>>;
}

/** The row as JSON: what the service sent, or only the chosen fields, in their order. */
export function projectRow<Row>(row: Row, fields: readonly string[] | undefined): unknown {
  if (fields === undefined || typeof row !== 'object' || row === null) return row;
  const record = row as Record<string, unknown>;
  return Object.fromEntries(
    fields.filter((field) => field in record).map((field) => [field, record[field]]),
  );
}

/** JSON written a line per row: one compact object each. */
function jsonLines<Row>(_columns: readonly Column<Row>[], fields?: readonly string[]) {
  return { header: '', line: (row: Row) => stringifyJson(projectRow(row, fields)) + '\n' };
}

/** Delimited text: a header of the columns, then one line per row. */
function delimitedLines(separator: string, field: (value: unknown) => string, eol: string) {
  return <Row>(columns: readonly Column<Row>[]): LineForm<Row> => ({
    header: columns.map((column) => column.header).join(separator) + eol,
    line: (row) => columns.map((column) => field(column.value(row))).join(separator) + eol,
  });
}

/** Writes the lines of a line format: the header once, before the first row or alone. */
function lineWriter<Row>(form: LineForm<Row>, write: (text: string) => void): FormatWriter<Row> {
  let header = form.header;
  const takeHeader = () => {
    const text = header;
    header = '';
    return text;
  };
  return {
    write(rows) {
      if (rows.length === 0) return;
      let text = takeHeader();
      for (const row of rows) text += form.line(row);
      write(text);
    },
    end() {
      const text = takeHeader();
      if (text !== '') write(text);
    },
  };
}

function indent(text: string): string {
  return text.replace(/^/gm, '  ');
}

/** One JSON array, written as rows arrive; a run that fails part way leaves it unclosed. */
function jsonArray<Row>(options: WriterOptions): FormatWriter<Row> {
  const { pretty, fields, write } = options;
  let count = 0;
  return {
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
}

const csvLines = delimitedLines(',', csvField, '\r\n');
const tsvLines = delimitedLines('\t', tsvField, '\n');

export const OUTPUT_FORMAT_SPECS = {
  table: {
    meaning:
      'compact aligned columns for people (the default on a terminal); long names cut with `…` to fit a terminal, never when piped',
    json: false,
    forPeople: true,
    columns: true,
    record: 'list',
    jsonPerRow: false,
    async open(columns, options) {
      // Loaded only when a table is written: cli-table3 and chalk are the heaviest modules.
      const { TableWriter } = await import('./table.js');
      const table = new TableWriter(columns, { color: options.color, width: options.width });
      return {
        write: (rows) =>
          table.write(rows, (text) => {
            if (text !== '') options.write(text);
          }),
        end() {},
      };
    },
  },
  json: {
    meaning:
      'exactly what the service returned, int64 digit for digit; pretty on a terminal, compact when piped (the default when piped)',
    json: true,
    forPeople: false,
    columns: false,
    record: 'object',
    jsonPerRow: false,
    // A run that prints as it goes writes JSON lines: what it can keep whole if it stops.
    lines: jsonLines,
    open: (_columns, options) => Promise.resolve(jsonArray(options)),
  },
  ndjson: {
    meaning: 'one JSON object per line, written as pages arrive',
    json: true,
    forPeople: false,
    columns: false,
    record: 'line',
    jsonPerRow: true,
    lines: jsonLines,
    open: (columns, options) =>
      Promise.resolve(lineWriter(jsonLines(columns, options.fields), options.write)),
  },
  csv: {
    meaning:
      "RFC 4180 with a header row and CRLF line ends; a text cell a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, after blanks too) gets a leading `'`",
    json: false,
    forPeople: false,
    columns: true,
    record: 'list',
    jsonPerRow: false,
    lines: csvLines,
    open: (columns, options) => Promise.resolve(lineWriter(csvLines(columns), options.write)),
  },
  tsv: {
    meaning:
      'a header row, then one line per row; tab, line breaks (U+2028, U+2029 too) and backslash written `\\t`, `\\n`, `\\r`, `\\\\`; formulas as in CSV',
    json: false,
    forPeople: false,
    columns: true,
    record: 'list',
    jsonPerRow: false,
    lines: tsvLines,
    open: (columns, options) => Promise.resolve(lineWriter(tsvLines(columns), options.write)),
  },
} as const satisfies Record<string, FormatSpec>;

export type OutputFormat = keyof typeof OUTPUT_FORMAT_SPECS;
export const OUTPUT_FORMATS = Object.keys(OUTPUT_FORMAT_SPECS) as OutputFormat[];

/** The entry of a format. */
export function formatSpec(format: OutputFormat): FormatSpec {
  return OUTPUT_FORMAT_SPECS[format];
}

/** The default format: for people on a terminal, JSON for programs. */
export function defaultFormat(stdoutIsTTY: boolean): OutputFormat {
  return stdoutIsTTY ? 'table' : 'json';
}

/** "a, b or c": the formats as help lists them. */
export function formatChoicesText(code: (name: string) => string = (name) => name): string {
  const names = OUTPUT_FORMATS.map(code);
  return `${names.slice(0, -1).join(', ')} or ${names.at(-1)!}`;
}
