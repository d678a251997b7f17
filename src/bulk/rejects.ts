import type { InputFormat } from '../core/contract.js';
import { guardFormula, unguardFormula } from '../core/formula-guard.js';
import { stringifyJson } from '../core/json.js';
import type { InputRecords, ReadRecord } from './records.js';

/**
 * The records an input set aside (--skip-invalid), as a file of the input's own format for
 * --rejects, written as they are read: each record as it was written, with a reason column (or
 * field) saying what to fix. Import reads a reason column or field as nothing, so the file,
 * fixed, imports as it is.
 */

/** A cell written back as it was read: quoted (RFC 4180) only where it must be. */
function csvCell(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const TSV_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };
const tsvCell = (text: string) => text.replace(/[\\\t\n\r]/g, (c) => TSV_ESCAPES[c]!);

/**
 * A cell as a spreadsheet may open it: a formula guarded (as -o csv guards it), whatever the
 * input held. What it reads back as is what it was read as: a guard the input had stays one.
 */
const safeCell = (text: string) => guardFormula(unguardFormula(text));

/** Why a record was set aside, as one cell or field. */
const reasonOf = (record: ReadRecord) => `${record.where}: ${record.reasons.join('; ')}`;

/**
 * A JSON record of the input with its reason, as it was written: the reason put first in its
 * text (so a key given twice stays twice, and the record invalid until it is edited); a line
 * that is no object, beside its reason.
 */
function withReason(record: ReadRecord): string {
  const reason = stringifyJson(reasonOf(record));
  const text = (typeof record.written === 'string' ? record.written : '').trim();
  if (!text.startsWith('{')) return `{"reason":${reason},"text":${stringifyJson(text)}}`;
  const rest = text.slice(1).trimStart();
  return rest.startsWith('}') ? `{"reason":${reason}}` : `{"reason":${reason},${rest}`;
}

/** Writes rejected records to `out`, one at a time, in the input's format. */
export class RejectsWriter {
  private count = 0;

  constructor(
    private readonly format: InputFormat,
    /** The input's header row (CSV, TSV), known once its first record is read. */
    private readonly header: () => readonly string[] | undefined,
    private readonly out: { write(text: string): Promise<void> },
  ) {}

  get written(): number {
    return this.count;
  }

  async add(record: ReadRecord): Promise<void> {
    const first = this.count++ === 0;
    if (this.format === 'json') {
      await this.out.write(`${first ? '[\n' : ',\n'}${withReason(record)}`);
    } else if (this.format === 'ndjson') {
      await this.out.write(`${withReason(record)}\n`);
    } else {
      await this.out.write(`${first ? this.headerRow() : ''}${this.row(record)}`);
    }
  }

  /** What closes the file (a JSON array's bracket). */
  async end(): Promise<void> {
    if (this.format === 'json' && this.count > 0) await this.out.write('\n]\n');
  }

  private get cell() {
    return this.format === 'csv' ? csvCell : tsvCell;
  }

  private get separator() {
    return this.format === 'csv' ? ',' : '\t';
  }

  /** Line ends as petstore writes the format: CRLF in CSV (RFC 4180), LF in TSV (-o tsv). */
  private get lineEnd() {
    return this.format === 'csv' ? '\r\n' : '\n';
  }

  /** The header with its reason column (a rejects file imported again keeps its one). */
  private columns(): { names: string[]; reasonAt: number } {
    const names = [...(this.header() ?? [])];
    let reasonAt = names.findIndex((name) => name.trim().toLowerCase() === 'reason');
    if (reasonAt === -1) reasonAt = names.push('reason') - 1;
    return { names, reasonAt };
  }

  private headerRow(): string {
    return this.columns().names.map(this.cell).join(this.separator) + this.lineEnd;
  }

  private row(record: ReadRecord): string {
    const cells = [...(typeof record.written === 'string' ? [] : record.written)].map(safeCell);
    const reason = safeCell(reasonOf(record));
    // A row of the wrong number of cells is kept whole, its reason after it: cut or padded to
    // the header, it would lose a cell, or become valid without anyone fixing it.
    if (cells.length !== (this.header() ?? []).length) cells.push(reason);
    else cells[this.columns().reasonAt] = reason;
    return cells.map(this.cell).join(this.separator) + this.lineEnd;
  }
}

/** A file records set aside are written to: its text a piece at a time, then in place. */
export interface RejectsFile {
  write(text: string): Promise<void>;
  close(): Promise<void>;
  discard(): Promise<void>;
}

/**
 * The records an input sets aside, written as they are read to the file `open` makes at the
 * first of them (no records set aside, no file; none at all without `open`, as in a dry run).
 */
export class RejectedRecords {
  private file: RejectsFile | undefined;
  private writer: RejectsWriter | undefined;
  private input: InputRecords | undefined;

  constructor(private readonly open: (() => Promise<RejectsFile>) | undefined) {}

  /** The input they come from: its format and header. */
  from(input: InputRecords): void {
    this.input = input;
  }

  async add(record: ReadRecord): Promise<void> {
    if (this.open === undefined || this.input === undefined) return;
    this.file ??= await this.open();
    this.writer ??= new RejectsWriter(this.input.format ?? 'ndjson', this.input.header, this.file);
    await this.writer.add(record);
  }

  /** The file, whole, in place. */
  async close(): Promise<void> {
    await this.writer?.end();
    await this.file?.close();
  }

  /** The run read no further: what was there stays. */
  async discard(): Promise<void> {
    await this.file?.discard().catch(() => undefined);
  }
}
