import { command, option, phrase } from '../core/phrase.js';
import { RECORD_MAX_CHARS } from '../core/contract.js';
import { UsageError } from '../core/errors.js';
import { unguardFormula } from '../core/formula-guard.js';
import { parseInt64 } from '../core/int64.js';
import { newPetProblem, type NewPet } from '../core/interface.js';
import { closestNames } from '../core/did-you-mean.js';
import { linesOf } from './input-text.js';
import { recordTooLong, statusInCase, type InputRecords, type ReadRecord } from './records.js';
import { csvRows, type Row } from './read-csv.js';

/**
 * CSV and TSV input for `pets import`: a header row naming the columns, then one pet per
 * row. What `pets list -o csv|tsv` writes reads back exactly: CSV by RFC 4180 (quoted fields,
 * line breaks inside quotes, CRLF), TSV with `\t \n \r \\` escapes and no quoting, and the
 * apostrophe that guards a formula taken off (core/formula-guard.ts). An empty status cell
 * means no status; an `id` column is ignored (the service assigns ids), and so is the `reason`
 * column a rejects file (--rejects) adds.
 */

export type DelimitedFormat = 'csv' | 'tsv';

/** The columns a pet file may have: NewPet's fields, and the id a listing carries. */
const FIELDS = ['name', 'categoryId', 'status'] as const;
type Field = (typeof FIELDS)[number];
const IGNORED = 'id';
const REASON = 'reason';

const TSV_ESCAPES: Record<string, string> = { t: '\t', n: '\n', r: '\r', '\\': '\\' };

/** Rows of TSV: one per line, cells split at tabs, `\t \n \r \\` undone. */
async function* tsvRows(text: AsyncIterable<string>, source: string): AsyncGenerator<Row> {
  // Any line end, in any mix (CR alone too): -o tsv escapes a CR inside a cell.
  const lines = linesOf(text, {
    anyEnd: true,
    maxChars: RECORD_MAX_CHARS,
    tooLong: (line) => recordTooLong(source, `line ${line}`),
  });
  for await (const line of lines) {
    if (line.text.trim() === '') continue;
    const cells = line.text
      .split('\t')
      .map((cell) => cell.replace(/\\([tnr\\])/g, (_, c: string) => TSV_ESCAPES[c]!));
    yield { cells, line: line.number };
  }
}

/** What a column holds: a field of NewPet, the id a listing carries, or nothing (no name). */
type ColumnKind = Field | typeof IGNORED | typeof REASON | '';

/** A header of one cell that names the fields with another separator: say which. */
function otherSeparator(name: string, format: DelimitedFormat): string | undefined {
  const separators = format === 'csv' ? [';', '\t', '|'] : [',', ';', '|'];
  return separators.find((separator) =>
    name.split(separator).some((part) => part.trim().toLowerCase() === 'name'),
  );
}

/** A column's name as compared: letter case, blanks, `_` and `-` aside (`Category ID`). */
const comparable = (name: string) => name.toLowerCase().replace(/[\s_-]+/g, '');

/** Which field each column holds, from the header row. */
function columnsOf(header: Row, source: string, format: DelimitedFormat): ColumnKind[] {
  const seen = new Set<string>();
  const columns = header.cells.map((cell, index): ColumnKind => {
    const name = cell.trim();
    // A column a sheet left without a name: its cells must be empty (checked per row).
    if (name === '') return '';
    const where = `${source}, line ${header.line}, column ${index + 1}`;
    const field = [...FIELDS, IGNORED, REASON].find(
      (known) => comparable(known) === comparable(name),
    );
    if (field === undefined) {
      const separator = otherSeparator(name, format);
      if (separator !== undefined) {
        const shown = separator === '\t' ? 'tabs' : `"${separator}"`;
        throw new UsageError(
          `${where}: the header is one cell, "${name}": its columns are separated by ${shown}, not ${format === 'csv' ? 'commas' : 'tabs'}; nothing was sent`,
          {
            hint:
              separator === '\t'
                ? phrase`Give ${option('inputFormat', 'tsv')}, or name the file .tsv.`
                : separator === ','
                  ? phrase`Give ${option('inputFormat', 'csv')}, or name the file .csv.`
                  : 'Save the sheet as CSV with commas (or as TSV, tab-separated), then add it again.',
          },
        );
      }
      // Measured against each field's length, not the typed one: a column name cut short
      // (`categry`, `categ`) is the common slip.
      const close = FIELDS.filter(
        (known) => closestNames(comparable(known), [comparable(name)]).length > 0,
      );
      const guess = close.length ? ` (did you mean ${close.join(' or ')}?)` : '';
      throw new UsageError(
        `${where}: unknown column "${name}"${guess}: a pet has ${FIELDS.join(', ')} (an id column is ignored); nothing was sent`,
        {
          hint: `The first line of a ${format.toUpperCase()} input names its columns (letter case, spaces, _ and - aside: Category ID is categoryId).`,
        },
      );
    }
    if (seen.has(field)) {
      throw new UsageError(`${where}: the column ${field} is given twice; nothing was sent`);
    }
    seen.add(field);
    return field as ColumnKind;
  });
  for (const needed of ['name', 'categoryId'] as const) {
    if (!seen.has(needed)) {
      const separator = format === 'csv' ? ',' : '\t';
      throw new UsageError(
        `${source}: no ${needed} column in its header (line ${header.line}: ${header.cells.join(format === 'csv' ? ',' : '\\t')}); nothing was sent`,
        {
          hint: phrase`Start the file with a header row, e.g. name${separator}categoryId${separator}status (${command('pets import', { template: format })} prints one).`,
        },
      );
    }
  }
  return columns;
}

/** Valid values for the fields a problem is not about, so each cell is checked alone. */
const PLACEHOLDER: NewPet = { name: 'x', categoryId: 0 };

/** A cell as its field's value (`changed`: a status in another case), or what is wrong with it. */
function cellValue(
  field: Field,
  cell: string,
): { value?: unknown; problem?: string; changed?: boolean } {
  if (field === 'categoryId') {
    if (cell.trim() === '') return { problem: 'categoryId is empty' };
    try {
      return { value: parseInt64(cell, 'categoryId') };
    } catch (error) {
      return { problem: (error as Error).message };
    }
  }
  // A status is a word: blanks a sheet left around it are not part of it (a name's are).
  const text = field === 'status' ? unguardFormula(cell).trim() : unguardFormula(cell);
  // An empty status cell is a pet without a status, as -o csv writes one.
  if (field === 'status' && text === '') return {};
  const spelled = field === 'status' ? statusInCase(text) : undefined;
  if (spelled !== undefined) return { value: spelled, changed: true };
  const problem = newPetProblem({ ...PLACEHOLDER, [field]: text });
  if (!problem) return { value: text };
  return {
    problem:
      field === 'status' ? `${problem.message}, got ${JSON.stringify(cell)}` : problem.message,
  };
}

/**
 * Reads CSV or TSV pets as they stream: the header row first (an unknown or missing column
 * refuses the input at once), then one record a row, each bad cell named by line and column.
 */
export function delimitedRecords(
  text: AsyncIterable<string>,
  source: string,
  format: DelimitedFormat,
): InputRecords {
  let header: readonly string[] | undefined;
  async function* records(): AsyncGenerator<ReadRecord> {
    const rows = format === 'csv' ? csvRows(text, source) : tsvRows(text, source);
    let columns: ColumnKind[] | undefined;
    let position = 0;
    for await (const row of rows) {
      if (columns === undefined) {
        columns = columnsOf(row, source, format);
        header = row.cells;
        continue;
      }
      // A row a sheet left empty (separators only, or blanks): no record.
      if (row.cells.every((cell) => cell.trim() === '')) continue;
      const { pet, reasons, hadId, changed } = rowPet(row, columns);
      yield {
        position: ++position,
        where: `line ${row.line}`,
        pet: reasons.length === 0 ? pet : undefined,
        reasons,
        written: row.cells,
        hadId,
        statusChanged: changed,
      };
    }
  }
  return { format, records: records(), header: () => header };
}

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

/** One row as a pet, or the reasons it is none (each naming its column). */
function rowPet(
  row: Row,
  columns: ColumnKind[],
): { pet: NewPet; reasons: string[]; hadId: boolean; changed: boolean } {
  const pet: Record<string, unknown> = {};
  const reasons: string[] = [];
  let hadId = false;
  let changed = false;
  if (row.cells.length !== columns.length) {
    reasons.push(`${plural(row.cells.length, 'cell')}, the header has ${columns.length}`);
    return { pet: pet as unknown as NewPet, reasons, hadId, changed };
  }
  columns.forEach((kind, index) => {
    const cell = row.cells[index]!;
    if (kind === IGNORED || kind === REASON) {
      if (kind === IGNORED && cell.trim() !== '') hadId = true;
      return;
    }
    if (kind === '') {
      if (cell.trim() !== '') reasons.push(`column ${index + 1}: a value in a column with no name`);
      return;
    }
    const found = cellValue(kind, cell);
    if (found.changed) changed = true;
    if (found.problem) reasons.push(`column ${index + 1} (${kind}): ${found.problem}`);
    else if (found.value !== undefined) pet[kind] = found.value;
  });
  return { pet: pet as unknown as NewPet, reasons, hadId, changed };
}
