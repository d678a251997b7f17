import type { InputFormat } from '../core/contract.js';
import { guardFormula } from '../core/formula-guard.js';
import { stringifyJson } from '../core/json.js';
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

/**
 * A JSON record of the input with its reason, as it was written: the reason put first in its
 * text (so a key given twice stays twice, and the record invalid until it is edited); a line
 * that is no object, beside its reason.
 */
function withReason(record: RejectedRecord): string {
  const reason = stringifyJson(reasonOf(record));
  const text = (record.text ?? '').trim();
  if (!text.startsWith('{')) return `{"reason":${reason},"text":${stringifyJson(text)}}`;
  const rest = text.slice(1).trimStart();
  return rest.startsWith('}') ? `{"reason":${reason}}` : `{"reason":${reason},${rest}`;
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
      // A row of the wrong number of cells is kept whole, its reason after it: cut or padded
      // to the header, it would lose a cell, or become valid without anyone fixing it.
      if (cells.length !== (records.header ?? []).length)
        cells.push(guardFormula(reasonOf(record)));
      else cells[at] = guardFormula(reasonOf(record));
      return cells.map(cell).join(separator);
    });
    // Line ends as petstore writes the format: CRLF in CSV (RFC 4180), LF in TSV (-o tsv).
    const end = format === 'csv' ? '\r\n' : '\n';
    return `${[header.map(cell).join(separator), ...rows].join(end)}${end}`;
  }
  const values = rejected.map(withReason);
  // JSON of either kind: an array's records are items, NDJSON's are lines.
  if (format === 'json' || rejected[0]?.where.startsWith('item')) {
    return `[\n${values.join(',\n')}\n]\n`;
  }
  return values.map((value) => `${value}\n`).join('');
}
