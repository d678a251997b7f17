import { command, option, phrase } from '../core/phrase.js';
import { UsageError } from '../core/errors.js';
import { unguardFormula } from '../core/formula-guard.js';
import { parseInt64 } from '../core/int64.js';
import { newPetProblem, type NewPet } from '../core/interface.js';
import { closestNames } from '../core/did-you-mean.js';
import { BULK_MAX_RECORDS } from '../core/contract.js';
import { badRecords, noPets, Problems, tooManyRecords } from './record-problems.js';
import { positionsAround, statusInCase, type PetRecords, type RejectedRecord } from './records.js';

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

/** One row as read: its cells, and the line it starts on. */
interface Row {
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

/** Rows of CSV, by csv-parse (loaded only for CSV input). */
async function csvRows(text: string, source: string): Promise<Row[]> {
  const { parse } = await import('csv-parse/sync');
  const lineOf = lineCounter(Buffer.from(text));
  let lastEnd = 0;
  try {
    // With info, each record comes with the byte offset it ends at.
    const parsed = parse(text, {
      bom: true,
      info: true,
      skip_empty_lines: true,
      relax_column_count: true,
      // RFC 4180 quoting, strictly: a quote out of place is refused, never taken as text that
      // would change a name without a word.
      relax_quotes: false,
      // Where the last whole record ended: an unclosed quote opens in the record after it.
      on_record: (record: string[], context: { bytes: number }) => {
        lastEnd = context.bytes;
        return record;
      },
      // Every line end, in any mix: rows added by hand to a CRLF file (a template) end in LF.
      record_delimiter: ['\r\n', '\n', '\r'],
    }) as unknown as { record: string[]; info: { bytes: number } }[];
    let end = 0;
    return parsed.map(({ record, info }) => {
      const line = lineOf(end);
      end = info.bytes;
      return { cells: record, line };
    });
  } catch (error) {
    const { code, lines } = error as { code?: string; lines?: number };
    // An unclosed quote runs to the end of the file: say where its record starts.
    const line = code === 'CSV_QUOTE_NOT_CLOSED' ? lineOf(lastEnd) : lines;
    const where = line === undefined ? '' : `, line ${line}`;
    const reason = CSV_PROBLEMS[code ?? ''] ?? (error as Error).message;
    throw new UsageError(`${source}${where}: not valid CSV: ${reason}; nothing was sent`, {
      hint: 'Quote a field that holds a comma, a quote or a line break ("a ""b"", c"), as RFC 4180 does.',
    });
  }
}

/**
 * The line a record starts on, from the byte offset the one before it ended at: the lines up to
 * there, and the empty lines after it (which the parser skips). Offsets only grow, so counting
 * goes once over the input.
 */
function lineCounter(bytes: Buffer): (offset: number) => number {
  // A line ends at LF, at CR, or at CR LF (one end, not two).
  const endsAt = (at: number) =>
    bytes[at] === 0x0a || (bytes[at] === 0x0d && bytes[at + 1] !== 0x0a);
  let position = 0;
  let line = 1;
  return (offset) => {
    for (; position < offset; position++) if (endsAt(position)) line++;
    let blank = 0;
    for (let at = offset; bytes[at] === 0x0a || bytes[at] === 0x0d; at++) {
      if (endsAt(at)) blank++;
    }
    return line + blank;
  };
}

const TSV_ESCAPES: Record<string, string> = { t: '\t', n: '\n', r: '\r', '\\': '\\' };

/** Rows of TSV: one per line, cells split at tabs, `\t \n \r \\` undone. */
function tsvRows(text: string): Row[] {
  const rows: Row[] = [];
  // Any line end, in any mix (CR alone too): -o tsv escapes a CR inside a cell.
  const lines = text.split(/\r\n|\n|\r/);
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    const cells = line
      .split('\t')
      .map((cell) => cell.replace(/\\([tnr\\])/g, (_, c: string) => TSV_ESCAPES[c]!));
    rows.push({ cells, line: index + 1 });
  });
  return rows;
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

/** Reads CSV or TSV pets; every bad row is reported by line and column before anything is sent. */
export async function parseDelimitedPets(
  text: string,
  source: string,
  format: DelimitedFormat,
  options: { skipInvalid?: boolean } = {},
): Promise<PetRecords> {
  const rows = format === 'csv' ? await csvRows(text, source) : tsvRows(text);
  const header = rows.shift();
  if (header === undefined) throw noPets(source);
  const columns = columnsOf(header, source, format);
  const pets: NewPet[] = [];
  const problems = new Problems();
  const rejected: RejectedRecord[] = [];
  const rejectedPositions: number[] = [];
  let ids = 0;
  let statusCaseChanged = 0;
  let position = 0;
  const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;
  for (const row of rows) {
    // A row a sheet left empty (separators only, or blanks): no record.
    if (row.cells.every((cell) => cell.trim() === '')) continue;
    if (++position > BULK_MAX_RECORDS) throw tooManyRecords(source);
    const { pet, reasons, hadId, changed } = rowPet(row, columns, plural);
    if (reasons.length > 0) {
      for (const reason of reasons) {
        problems.add(`line ${row.line}${reason.startsWith('column') ? ', ' : ': '}${reason}`);
      }
      // Kept, as written, only to be set aside: refused, the input needs only the count.
      if (options.skipInvalid === true) {
        rejected.push({ where: `line ${row.line}`, reasons, cells: row.cells });
      }
      rejectedPositions.push(position);
      continue;
    }
    if (hadId) ids++;
    if (changed) statusCaseChanged++;
    pets.push(pet);
  }
  if (pets.length === 0 && problems.count === 0) throw noPets(source);
  if (problems.count > 0 && (options.skipInvalid !== true || pets.length === 0)) {
    throw badRecords(source, problems, rejectedPositions.length);
  }
  return {
    count: pets.length,
    at: (index) => pets[index]!,
    ignoredIds: ids,
    statusCaseChanged,
    rejected,
    header: header.cells,
    inputPosition: positionsAround(rejectedPositions),
  };
}

/** One row as a pet, or the reasons it is none (each naming its column). */
function rowPet(
  row: Row,
  columns: ColumnKind[],
  plural: (count: number, noun: string) => string,
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
