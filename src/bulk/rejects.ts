import type { InputFormat } from '../core/contract.js';
import { guardFormula } from '../core/formula-guard.js';
import { parseJson, stringifyJson } from '../core/json.js';
import type { PetRecords, RejectedRecord } from './records.js';

/**
 * The records an input set aside (--skip-invalid), as a file of the input's own format for
 * --rejects: each record as it was written, with a reason column (or field) saying what to fix.
 * Import reads a reason column or field as nothing, so the file, fixed, imports as it is.
 */

/** A cell written back as it was read: quoted (RFC 4180) only where it must be. */
function csvCell(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const TSV_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };
const tsvCell = (text: string) => text.replace(/[\\\t\n\r]/g, (c) => TSV_ESCAPES[c]!);

/** Why a record was set aside, as one cell or field. */
const reasonOf = (record: RejectedRecord) => `${record.where}: ${record.reasons.join('; ')}`;

/** A JSON record of the input with its reason: the object with a reason field, else both. */
function withReason(record: RejectedRecord): unknown {
  const reason = reasonOf(record);
  try {
    const value = parseJson(record.text ?? '');
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      return { ...(value as Record<string, unknown>), reason };
    }
  } catch {
    // Not JSON at all: kept as text beside its reason.
  }
  return { text: record.text, reason };
}

export function rejectsText(records: PetRecords, format: InputFormat | undefined): string {
  const rejected = records.rejected;
  if (format === 'csv' || format === 'tsv') {
    const cell = format === 'csv' ? csvCell : tsvCell;
    const separator = format === 'csv' ? ',' : '\t';
    const header = [...(records.header ?? [])];
    // A rejects file imported again keeps its one reason column, with the new reason in it.
    let at = header.findIndex((name) => name.trim().toLowerCase() === 'reason');
    if (at === -1) at = header.push('reason') - 1;
    const rows = rejected.map((record) => {
      const cells = [...(record.cells ?? [])];
      while (cells.length < at) cells.push('');
      cells[at] = guardFormula(reasonOf(record));
      return cells.map(cell).join(separator);
    });
    return `${[header.map(cell).join(separator), ...rows].join('\r\n')}\r\n`;
  }
  const values = rejected.map(withReason);
  // JSON of either kind: an array's records are items, NDJSON's are lines.
  if (format === 'json' || rejected[0]?.where.startsWith('item'))
    return `${stringifyJson(values, true)}\n`;
  return values.map((value) => `${stringifyJson(value)}\n`).join('');
}
