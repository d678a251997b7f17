import { Chalk } from 'chalk';
import Table from 'cli-table3';
import type { CellTone, Column } from './columns.js';
import { sanitizeLine } from '../core/sanitize.js';

function cellText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return sanitizeLine(value);
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') {
    return String(value);
  }
  return sanitizeLine(
    JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v)),
  );
}

export function renderTable<Row>(rows: Row[], columns: Column<Row>[], color: boolean): string {
  // Colour is decided by us, not by chalk's or cli-table3's own detection (both ignore NO_COLOR,
  // and cli-table3 colours pipes), so both are told exactly what to do.
  const chalk = new Chalk({ level: color ? 1 : 0 });
  const paint: Record<CellTone, (text: string) => string> = {
    good: chalk.green,
    warn: chalk.yellow,
    muted: chalk.dim,
  };
  const table = new Table({
    head: columns.map((column) => chalk.bold(column.header)),
    style: { head: [], border: [] },
  });
  for (const row of rows) {
    table.push(
      columns.map((column) => {
        const text = cellText(column.value(row));
        const tone = color ? column.tone?.(row) : undefined;
        return tone ? paint[tone](text) : text;
      }),
    );
  }
  return table.toString();
}
