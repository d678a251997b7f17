import { createHash, hash } from 'node:crypto';
import { extname } from 'node:path';
import { RECORD_MAX_CHARS, type InputFormat } from '../core/contract.js';
import { UsageError } from '../core/errors.js';
import { isPetStatus, newPetProblem, type NewPet } from '../core/interface.js';
import { stringifyJson } from '../core/json.js';
import { option, phrase } from '../core/phrase.js';

/**
 * The records of an import's input, one at a time as they stream, each checked against the
 * interface's NewPet: what a record is as read, as sent, and as digested. Nothing is kept per
 * record; the readers of each format (read-json.ts, read-delimited.ts) yield them in order.
 */

/** One record of the input, valid or not, as read. */
export interface ReadRecord {
  /** Its 1-based place among the input's records, invalid ones counted: what its key is made from. */
  position: number;
  /** "line 5", "item 3". */
  where: string;
  /** The record as sent; undefined when it is invalid. */
  pet: NewPet | undefined;
  /** Why it is invalid (each naming its column where it has one); empty when valid. */
  reasons: string[];
  /** As written: its cells (CSV, TSV) or its JSON text, for a rejects file. */
  written: readonly string[] | string;
  /** It carried an `id` (a listing read back), which is ignored. */
  hadId: boolean;
  /** It gave its status in another letter case (`Available`), sent as the interface spells it. */
  statusChanged: boolean;
}

/** An input's records in the format it was read in, and its header row (CSV, TSV). */
export interface InputRecords {
  format: InputFormat | undefined;
  records: AsyncIterable<ReadRecord> | Iterable<ReadRecord>;
  /** The header row's cells, once the first record is read (CSV, TSV). */
  header: () => readonly string[] | undefined;
}

/**
 * A status in another letter case (`Available`, `SOLD`) as the interface spells it, or
 * undefined when it is none in any case. What people type in a sheet is forgiven; a status
 * that is no status at all is still refused.
 */
export function statusInCase(text: string): string | undefined {
  const lower = text.toLowerCase();
  return lower !== text && isPetStatus(lower) ? lower : undefined;
}

/**
 * A JSON record as it is sent: without the `id` a listing carries and the `reason` a rejects
 * file gives each record, its status in the interface's spelling; or why it is no NewPet.
 */
export function jsonRecord(
  value: unknown,
  at: { position: number; where: string; written: string; problem?: string | undefined },
): ReadRecord {
  const base = { position: at.position, where: at.where, written: at.written };
  const record: ReadRecord = {
    ...base,
    pet: undefined,
    reasons: [],
    hadId: false,
    statusChanged: false,
  };
  if (at.problem !== undefined) return { ...record, reasons: [at.problem] };
  let sent = value;
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const fields = { ...(value as Record<string, unknown>) };
    record.hadId = Object.hasOwn(fields, 'id');
    delete fields.id;
    delete fields.reason;
    const spelled = typeof fields.status === 'string' ? statusInCase(fields.status) : undefined;
    if (spelled !== undefined) {
      fields.status = spelled;
      record.statusChanged = true;
    }
    sent = fields;
  }
  const problem = newPetProblem(sent);
  if (problem !== undefined) return { ...record, reasons: [problem.message] };
  return { ...record, pet: sent as NewPet };
}

/** The digest a record is recognised by when a run is resumed (its content, as sent). */
export function recordDigest(pet: NewPet): string {
  // In the interface's order of fields, whatever order the input gave them in: a sheet with
  // its columns moved, or JSON with its keys sorted, holds the same records. (The digests of
  // inputs in this order are what they were before.)
  const { name, categoryId, status } = pet;
  const fields = status === undefined ? { name, categoryId } : { name, categoryId, status };
  return hash('sha256', stringifyJson(fields)).slice(0, 32);
}

/** A record longer than one record may be: the input as a whole is not bounded, one record is. */
export function recordTooLong(source: string, where: string): UsageError {
  return new UsageError(
    `${source}, ${where}: a record longer than ${RECORD_MAX_CHARS.toLocaleString('en-US')} characters; nothing was sent`,
    {
      hint: 'One record is a pet: a name, a category and a status. A line this long is no record (a quote never closed, a file that is not the input?).',
    },
  );
}

/**
 * The first line of a CSV or TSV file: a header naming a pet's fields. JSON never starts so, so
 * it tells a file given as JSON that is not.
 */
export function delimitedHeader(line: string): 'csv' | 'tsv' | undefined {
  for (const [separator, format] of [
    ['\t', 'tsv'],
    [',', 'csv'],
  ] as const) {
    // Quoted or not: `"name","categoryId"` is what R's write.csv writes.
    const cells = line.split(separator).map((cell) =>
      cell
        .trim()
        .replace(/^"(.*)"$/, '$1')
        .toLowerCase(),
    );
    if (cells.length > 1 && cells.includes('name')) return format;
  }
  return undefined;
}

/** A JSON input whose first line is a CSV or TSV header: say so, rather than "not JSON". */
export function refuseDelimited(firstLine: string, source: string): void {
  const format = delimitedHeader(firstLine);
  if (format === undefined) return;
  throw new UsageError(
    `${source} looks like ${format.toUpperCase()} (its first line is a header: ${firstLine.trim().slice(0, 80)}), not JSON; nothing was sent`,
    { hint: phrase`Give ${option('inputFormat', format)}, or name the file .${format}.` },
  );
}

const EXTENSIONS: Record<string, InputFormat> = {
  '.json': 'json',
  '.ndjson': 'ndjson',
  '.jsonl': 'ndjson',
  '.csv': 'csv',
  '.tsv': 'tsv',
  '.tab': 'tsv',
};

/** The format a file's name says, if it says one (`-`, standard input, says none). */
export function formatOfName(path: string): InputFormat | undefined {
  return path === '-' ? undefined : EXTENSIONS[extname(path).toLowerCase()];
}

/** The format of text whose name says none, by its start: JSON of either kind, or a header. */
export function sniffedFormat(start: string): InputFormat {
  const trimmed = start.trimStart();
  if (trimmed.startsWith('[')) return 'json';
  if (trimmed.startsWith('{')) return 'ndjson';
  const line = trimmed.split(/\r\n|\n|\r/, 1)[0]!;
  return delimitedHeader(line) ?? 'ndjson';
}

/** Refuses JSON given as CSV or TSV (by name or by --input-format), saying what it looks like. */
export function refuseJson(start: string, source: string, format: InputFormat, given: boolean) {
  const trimmed = start.trimStart();
  if (!trimmed.startsWith('[') && !trimmed.startsWith('{')) return;
  const by = given ? 'the format given' : 'by its name';
  throw new UsageError(
    `${source} looks like JSON, not ${format.toUpperCase()} (${by}); nothing was sent`,
    { hint: phrase`Give ${option('inputFormat', trimmed.startsWith('[') ? 'json' : 'ndjson')}.` },
  );
}

/**
 * The stream's text again from its start, after its first line (or as much as `most` of it)
 * has been read ahead to tell its format: the start, and the whole text.
 */
export async function readAhead(
  text: AsyncIterable<string>,
  most = 64 * 1024,
): Promise<{ start: string; text: AsyncIterable<string> }> {
  const iterator = text[Symbol.asyncIterator]();
  let start = '';
  let done = false;
  // Until a line with something on it has ended (its first line), or `most` was read.
  const lineRead = () => {
    const first = start.search(/\S/);
    return first !== -1 && /[\n\r]/.test(start.slice(first));
  };
  while (!lineRead() && start.length < most) {
    const next = await iterator.next();
    if (next.done === true) {
      done = true;
      break;
    }
    start += next.value;
  }
  async function* again(): AsyncGenerator<string> {
    if (start !== '') yield start;
    if (done) return;
    for (let next = await iterator.next(); next.done !== true; next = await iterator.next()) {
      yield next.value;
    }
  }
  return { start, text: again() };
}

/** "1 record", "3 records". */
export function recordsText(count: number): string {
  return count === 1 ? '1 record' : `${count.toLocaleString('en-US')} records`;
}

/** The digests a run keeps of its records, as it reads them, and of the input as a whole. */
export class InputDigest {
  private readonly whole = createHash('sha256');
  private count = 0;
  /** The records' digests added up, 32 bits a lane (each lane wraps on its own). */
  private readonly sum = new Uint32Array(4);

  /** The record's digest, counted into the whole. */
  add(pet: NewPet): string {
    const digest = recordDigest(pet);
    this.whole.update(this.count++ === 0 ? digest : `\n${digest}`);
    for (let lane = 0; lane < 4; lane++) {
      this.sum[lane] = this.sum[lane]! + Number.parseInt(digest.slice(lane * 8, lane * 8 + 8), 16);
    }
    return digest;
  }

  /** The digest of every record added, in order (as journals have kept it since format 1). */
  digest(): string {
    return this.whole.digest('hex');
  }

  /**
   * The records' content whatever their order: the same sheet sorted another way is the same
   * records (a sum of their digests is the same in any order; a record twice counts twice).
   */
  content(): string {
    const lanes = [...this.sum].map((lane) => lane.toString(16).padStart(8, '0')).join('');
    return `sum1:${this.count}:${lanes}`;
  }
}
