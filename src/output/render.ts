import { stringifyJson } from '../core/json.js';
import type { Column } from './columns.js';
import type { OutputFormat } from './format.js';

export type { CellTone, Column } from './columns.js';

export interface RenderOptions {
  format: OutputFormat;
  color: boolean;
  /** Pretty JSON on a terminal, compact when piped. */
  pretty: boolean;
  write: (text: string) => void;
}

/** Writes data to stdout in the chosen format. Tables are loaded only when needed. */
export async function renderData<Row>(
  data: Row | Row[],
  columns: Column<Row>[],
  options: RenderOptions,
): Promise<void> {
  switch (options.format) {
    case 'json':
      options.write(stringifyJson(data, options.pretty) + '\n');
      return;
    case 'ndjson':
      for (const row of Array.isArray(data) ? data : [data]) {
        options.write(stringifyJson(row) + '\n');
      }
      return;
    case 'table': {
      const { renderTable } = await import('./table.js');
      const rows = Array.isArray(data) ? data : [data];
      options.write(renderTable(rows, columns, options.color) + '\n');
      return;
    }
  }
}
