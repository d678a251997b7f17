import type { RunOutput } from '../../context/context.js';
import { IncompleteListError, type PetstoreError } from '../../core/errors.js';
import { stringifyJson } from '../../core/json.js';
import { caretControls, sanitizeText } from '../../core/sanitize.js';
import type { Column } from '../../output/render.js';
import { formatSpec, type OutputFormat } from '../../output/formats.js';
import type { RowWriter } from '../../output/rows.js';

type Row = Record<string, unknown>;

/** A value a cell can show as it is: no object or array inside (a JSON raw number is one). */
function isFlatValue(value: unknown): boolean {
  return (
    value === null ||
    typeof value !== 'object' ||
    (value as { rawJSON?: unknown }).rawJSON !== undefined
  );
}

function isFlatObject(value: unknown): value is Row {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every(isFlatValue)
  );
}

/** Columns for rows: every key, in the order they first appear. */
function columnsOf(rows: readonly Row[]): Column<Row>[] {
  const keys = new Set<string>();
  for (const row of rows) for (const key of Object.keys(row)) keys.add(key);
  return [...keys].map((key) => ({ header: key, value: (row: Row) => row[key] }));
}

const tabular = (format: OutputFormat) => formatSpec(format).columns;
/** A list written as a JSON value a row (NDJSON). */
const rowByRow = (format: OutputFormat) => formatSpec(format).jsonPerRow;

/**
 * A response body on stdout: JSON as JSON (int64 exact; NDJSON a line per item of a list), a
 * list of flat objects in a table, CSV or TSV when asked (anything else stays JSON there), and
 * text with its control characters shown (`^[`), to a terminal or a pipe alike; with `raw`,
 * text as the service sent it.
 */
export async function printBody(
  ctx: RunOutput,
  { body, isText }: { body: unknown; isText: boolean },
  raw = false,
): Promise<void> {
  const format = ctx.settings.output;
  if (ctx.settings.query !== undefined) {
    // --query shapes the body as JSON whatever the format (text is a JSON string to it); a
    // list with -o ndjson, a row at a time.
    if (rowByRow(format) && Array.isArray(body)) await printRows(ctx, body);
    else ctx.printRequest(body);
    return;
  }
  if (isText) {
    if (body === '') return;
    const text = String(body);
    if (raw)
      ctx.notice('--raw: the body is written as the service sent it, control characters and all.');
    const shown = raw ? text : caretControls(text);
    // At a terminal, invisible characters too: they could hide or reorder what is shown.
    ctx.io.stdout.write(ctx.io.stdoutIsTTY && !raw ? sanitizeText(shown) : shown);
    if (!text.endsWith('\n')) ctx.io.stdout.write('\n');
    return;
  }
  const rows = Array.isArray(body) ? body : [body];
  if (tabular(format) && rows.every(isFlatObject)) {
    await ctx.render(rows, columnsOf(rows));
    return;
  }
  if (rowByRow(format) && Array.isArray(body)) {
    await printRows(ctx, body);
    return;
  }
  ctx.printRequest(body);
}

async function printRows(ctx: RunOutput, rows: unknown[]): Promise<void> {
  const writer = await ctx.openRows<unknown>([]);
  writer.write(rows);
  writer.end();
}

/** A later page failed: the items before it were printed. */
export class PageFailure extends Error {
  constructor(
    readonly failure: PetstoreError,
    readonly page: number,
  ) {
    super(failure.message);
  }
}

/**
 * The items of every page, as they come: NDJSON a line each, JSON one array (left open if a
 * page fails, so no parser takes a short list for the whole), a table, CSV or TSV of flat
 * objects; items that are not flat objects go out as JSON lines in those three.
 */
export async function printPages(ctx: RunOutput, pages: AsyncIterable<unknown[]>): Promise<void> {
  const format = ctx.settings.output;
  let printed = 0;
  let writer: RowWriter<unknown> | undefined;
  try {
    for await (const items of pages) {
      writer ??=
        tabular(format) && ctx.settings.query === undefined && !items.every(isFlatObject)
          ? jsonLines(ctx)
          : await ctx.openRows(tabular(format) ? columnsOf(items as Row[]) : []);
      writer.write(items);
      printed += items.length;
    }
  } catch (error) {
    if (error instanceof PageFailure) {
      throw new IncompleteListError(error.failure, writer?.printed ?? printed, error.page, 'item');
    }
    throw error;
  }
  (writer ?? (await ctx.openRows<unknown>([]))).end();
}

function jsonLines(ctx: RunOutput): RowWriter<unknown> {
  let count = 0;
  return {
    write(rows) {
      for (const row of rows) ctx.io.stdout.write(stringifyJson(row) + '\n');
      count += rows.length;
    },
    end() {},
    get count() {
      return count;
    },
    get printed() {
      return count;
    },
  };
}
