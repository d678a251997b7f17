import { stringifyJson } from '../core/json.js';
import { pickColumns, type Column } from './columns.js';
import { formatSpec } from './formats.js';
import { openRows, projectRow, type RowsOptions } from './rows.js';

export type { CellTone, Column } from './columns.js';
export type RenderOptions = RowsOptions;

/**
 * Writes data to stdout in the chosen format: a list as rows, a single record as one object in
 * JSON and NDJSON and as a one-row table or CSV. Tables are loaded only when needed.
 */
export async function renderData<Row>(
  data: Row | Row[],
  columns: readonly Column<Row>[],
  options: RenderOptions,
): Promise<void> {
  if (!Array.isArray(data) && options.query) {
    const value = options.query(projectRow(data, options.fields));
    options.write(stringifyJson(value, options.pretty) + '\n');
    return;
  }
  const spec = formatSpec(options.format);
  if (!Array.isArray(data) && spec.record !== 'list') {
    const pretty = spec.record === 'object' && options.pretty;
    options.write(stringifyJson(projectRow(data, options.fields), pretty) + '\n');
    return;
  }
  const rows = await openRows(pickColumns(columns, options.fields), options);
  rows.write(Array.isArray(data) ? data : [data]);
  rows.end();
}
