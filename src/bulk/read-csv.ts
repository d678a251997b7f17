import { once } from 'node:events';
import { RECORD_MAX_CHARS } from '../core/contract.js';
import { UsageError } from '../core/errors.js';
import { recordTooLong } from './records.js';

/** CSV as it streams, by csv-parse (loaded only for CSV input): rows, and where each starts. */

/** One row as read: its cells, and the line it starts on. */
export interface Row {
  cells: string[];
  line: number;
}

/** What csv-parse's refusals mean, for whoever fixes the sheet. */
const CSV_PROBLEMS: Record<string, string> = {
  CSV_QUOTE_NOT_CLOSED: 'a quoted field starts here and is never closed (a " is missing)',
  CSV_INVALID_CLOSING_QUOTE:
    'text after a closing quote (a quote inside a quoted field is written twice: "a ""b""")',
  INVALID_OPENING_QUOTE:
    'a quote inside a field that is not quoted (quote the whole field and write the quote twice)',
};

/** How much text csv-parse is given at once (see csvRows). */
const FEED_CHARS = 16 * 1024;

/** Line ends inside a cell: CR LF counts as one, and as two for csv-parse's count. */
function lineEnds(cells: readonly string[]): { ends: number; crlf: number } {
  let ends = 0;
  let crlf = 0;
  for (const cell of cells) {
    for (const match of cell.matchAll(/\r\n|\n|\r/g)) {
      ends++;
      if (match[0].length === 2) crlf++;
    }
  }
  return { ends, crlf };
}

/**
 * How long the CSV record being read is, from the text as it comes: characters since the last
 * line end outside quotes (a quote opens and closes; a doubled one does both), and the line it
 * started on (CR LF, CR or LF each end one).
 */
class RecordSpan {
  private length = 0;
  private quoted = false;
  private line = 1;
  private afterCr = false;
  /** The line the record being read starts on. */
  start = 1;

  /** Reads the piece; true once a record in it is longer than a record may be. */
  over(piece: string): boolean {
    for (let at = 0; at < piece.length; at++) {
      const char = piece.charCodeAt(at);
      const lf = char === 0x0a;
      if (lf || char === 0x0d) {
        // The LF of a CR LF ends no other line.
        if (!(lf && this.afterCr)) this.line++;
        this.afterCr = !lf;
        if (!this.quoted) {
          this.length = 0;
          this.start = this.line;
          continue;
        }
      } else this.afterCr = false;
      if (char === 0x22) this.quoted = !this.quoted;
      if (++this.length > RECORD_MAX_CHARS) return true;
    }
    return false;
  }
}

/**
 * Rows of CSV as they stream, by csv-parse (loaded only for CSV input), each with the line it
 * starts on. csv-parse counts the lines each record ends on, a CR LF inside quotes as two: that
 * is taken back, and a record's own line breaks give where it starts.
 */
export async function* csvRows(text: AsyncIterable<string>, source: string): AsyncGenerator<Row> {
  const { parse } = await import('csv-parse');
  /** Where the last whole record ended: an unclosed quote opens on the line after it. */
  const last = { line: 0, empty: 0, crlf: 0 };
  /** The line each record parsed and not yet read starts on, in order. */
  const starts: number[] = [];
  const parser = parse({
    bom: true,
    skip_empty_lines: true,
    relax_column_count: true,
    // RFC 4180 quoting, strictly: a quote out of place is refused, never taken as text that
    // would change a name without a word.
    relax_quotes: false,
    // Every line end, in any mix: rows added by hand to a CRLF file (a template) end in LF.
    record_delimiter: ['\r\n', '\n', '\r'],
    max_record_size: RECORD_MAX_CHARS,
    // As each record is parsed (those parsed before an error included, which never reach
    // the reader): where it starts and ends.
    on_record: (record: string[], context) => {
      const { ends, crlf } = lineEnds(record);
      last.crlf += crlf;
      last.line = context.lines - last.crlf;
      last.empty = context.empty_lines;
      starts.push(last.line - ends);
      return record;
    },
  });
  const stop = new AbortController();
  const span = new RecordSpan();
  const feeding = (async () => {
    for await (const chunk of text) {
      // A few kilobytes at a time: csv-parse makes every record of what it is given at once.
      for (let at = 0; at < chunk.length; at += FEED_CHARS) {
        if (stop.signal.aborted) return;
        const piece = chunk.slice(at, at + FEED_CHARS);
        // csv-parse bounds a field, not a record: a row of a million empty fields (commas
        // alone) would be held whole. Such a row is refused before the parser sees it.
        if (span.over(piece)) throw recordTooLong(source, `line ${span.start}`);
        if (!parser.write(piece)) await once(parser, 'drain', { signal: stop.signal });
      }
    }
    parser.end();
  })().catch((error: unknown) => {
    if (!stop.signal.aborted) parser.destroy(error as Error);
  });
  try {
    for await (const cells of parser as AsyncIterable<string[]>) {
      yield { cells, line: starts.shift()! };
    }
  } catch (error) {
    const {
      code,
      lines,
      empty_lines: empty,
    } = error as {
      code?: string;
      lines?: number;
      empty_lines?: number;
    };
    // Anything else (the input could not be read, say) is no CSV error of the input.
    if (code === undefined || !/^(CSV|INVALID)_/.test(code)) throw error;
    // The record after the last whole one starts after the blank lines that follow it.
    const next = last.line + 1 + Math.max(0, (empty ?? last.empty) - last.empty);
    if (code === 'CSV_MAX_RECORD_SIZE') throw recordTooLong(source, `line ${next}`);
    const line = code === 'CSV_QUOTE_NOT_CLOSED' ? next : (lines ?? next) - last.crlf;
    const reason = CSV_PROBLEMS[code] ?? (error as Error).message;
    throw new UsageError(`${source}, line ${line}: not valid CSV: ${reason}; nothing was sent`, {
      hint: 'Quote a field that holds a comma, a quote or a line break ("a ""b"", c"), as RFC 4180 does.',
    });
  } finally {
    stop.abort();
    parser.destroy();
  }
  await feeding;
}
