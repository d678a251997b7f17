import { option, phrase } from '../core/phrase.js';
import { hash } from 'node:crypto';
import {
  duplicateKeys,
  firstDuplicateKey,
  JsonTooDeepError,
  parseJson,
  stringifyJson,
} from '../core/json.js';
import { BULK_MAX_RECORDS } from '../core/contract.js';
import { badRecords, noPets, Problems, tooManyRecords } from './record-problems.js';
import { isPetStatus, newPetProblem, type NewPet } from '../core/interface.js';
import { UsageError } from '../core/errors.js';

/** What is wrong with a record, by the interface's NewPet (one check for every front end). */
function recordProblem(value: unknown): string | undefined {
  return newPetProblem(value)?.message;
}

function duplicateProblem(key: string): string {
  return `"${key}" is given twice (only one value can be sent)`;
}

function parseProblem(error: unknown): string {
  return error instanceof JsonTooDeepError ? error.message : 'not valid JSON';
}

/** The checked records of an input, read one at a time: nothing is kept per record. */
export interface PetRecords {
  readonly count: number;
  /** The record at this 0-based position. */
  at(index: number): NewPet;
  /**
   * How many records carried an `id` (a listing read back), which is ignored: the service
   * assigns ids, so these records are created as new pets.
   */
  readonly ignoredIds: number;
  /** How many records gave their status in another letter case (`Available`), sent as the
   * interface spells it (`available`). */
  readonly statusCaseChanged: number;
  /** The records refused as read (kept only when asked to skip them), in input order. */
  readonly rejected: readonly RejectedRecord[];
  /** The header row's cells (CSV, TSV): what a rejects file starts with. */
  readonly header?: readonly string[] | undefined;
  /**
   * The 1-based position in the input, every record counted, of the record at this 0-based
   * index: what its Idempotency-Key is made from, so a row fixed in place and sent again does
   * not move the keys of the rows after it.
   */
  inputPosition(index: number): number;
}

/** A record refused as read, kept for --rejects: where it is, why, and as it was written. */
export interface RejectedRecord {
  /** "line 5", "item 3". */
  where: string;
  reasons: string[];
  /** Its cells (CSV, TSV), or its JSON text. */
  cells?: readonly string[] | undefined;
  text?: string | undefined;
}

/**
 * The input position (1-based, every record counted) of the good record at a 0-based index,
 * given the positions of the rejected ones in ascending order.
 */
export function positionsAround(rejected: readonly number[]): (index: number) => number {
  return (index) => {
    let position = index + 1;
    for (const skipped of rejected) {
      if (skipped > position) break;
      position++;
    }
    return position;
  };
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

/** The record with its status in the interface's spelling, and whether it changed. */
function withStatusInCase(value: unknown): { value: unknown; changed: boolean } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { value, changed: false };
  }
  const status = (value as Record<string, unknown>).status;
  const spelled = typeof status === 'string' ? statusInCase(status) : undefined;
  if (spelled === undefined) return { value, changed: false };
  return { value: { ...(value as Record<string, unknown>), status: spelled }, changed: true };
}

/** A record as read, as it is sent: without the id a listing carries, its status spelled. */
function asSent(raw: unknown): { value: unknown; hadId: boolean; changed: boolean } {
  const { value, hadId } = withoutId(raw);
  return { ...withStatusInCase(value), hadId };
}

/**
 * The record without the `id` a listing carries (and whether it had one), and without the
 * `reason` a rejects file (--rejects) gives each record it holds.
 */
function withoutId(value: unknown): { value: unknown; hadId: boolean } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { value, hadId: false };
  }
  const hadId = Object.hasOwn(value, 'id');
  if (!hadId && !Object.hasOwn(value, 'reason')) return { value, hadId: false };
  const rest = { ...(value as Record<string, unknown>) };
  delete rest.id;
  delete rest.reason;
  return { value: rest, hadId };
}

/**
 * Reads NewPet records from a JSON array or from NDJSON (one object per line), and checks all
 * of them before anything is sent. Every bad record is reported (up to a cap), a line that is
 * not JSON among them. int64 values keep every digit. An NDJSON record is parsed again when it
 * is sent, so the input's text and two offsets per record are all that is kept.
 */
export function parsePetsFile(
  text: string,
  source: string,
  format?: 'json' | 'ndjson',
  options: { skipInvalid?: boolean } = {},
): PetRecords {
  const problems = new Problems();
  const rejected: RejectedRecord[] = [];
  const rejectedPositions: number[] = [];
  let ignoredIds = 0;
  let statusCaseChanged = 0;
  /** The record as sent, counted; or its problem, the record set aside. */
  const take = (
    raw: unknown,
    problem: string | undefined,
    where: string,
    written: () => string,
  ) => {
    const sent = asSent(raw);
    problem ??= recordProblem(sent.value);
    if (problem !== undefined) {
      problems.add(`${where}: ${problem}`);
      // Kept, as written, only to be set aside: refused, the input needs only the count.
      if (options.skipInvalid === true)
        rejected.push({ where, reasons: [problem], text: written() });
      return false;
    }
    if (sent.hadId) ignoredIds++;
    if (sent.changed) statusCaseChanged++;
    return true;
  };
  let count: number;
  let at: (index: number) => NewPet;
  if (format === 'json' || (format === undefined && text.trimStart().startsWith('['))) {
    let parsed: unknown;
    try {
      parsed = parseJson(text);
    } catch (error) {
      const first = text.trimStart().split('\n', 1)[0]!;
      refuseDelimited(first, source);
      const reason = error instanceof JsonTooDeepError ? error.message : (error as Error).message;
      if (isJsonObject(first)) {
        throw new UsageError(
          `${source} is not one JSON array but one object a line (NDJSON); nothing was sent`,
          {
            hint: phrase`Give ${option('inputFormat', 'ndjson')}, or name the file .ndjson.`,
          },
        );
      }
      throw new UsageError(`${source} is not valid JSON: ${reason}; nothing was sent`);
    }
    if (!Array.isArray(parsed)) throw new UsageError(`${source} must hold a JSON array of pets`);
    if (parsed.length > BULK_MAX_RECORDS) throw tooManyRecords(source);
    // JSON.parse keeps the last of a key given twice: the record the user wrote is not the one
    // that would be sent (the service itself refuses such a body).
    const twice = new Map(duplicateKeys(text).map(({ key, item }) => [item, key]));
    const items: NewPet[] = [];
    parsed.forEach((value, index) => {
      const key = twice.get(index);
      const problem = key === undefined ? undefined : duplicateProblem(key);
      if (take(value, problem, `item ${index + 1}`, () => stringifyJson(value))) {
        items.push(asSent(value).value as NewPet);
      } else rejectedPositions.push(index + 1);
    });
    count = items.length;
    at = (index) => items[index]!;
  } else {
    const starts: number[] = [];
    const ends: number[] = [];
    let records = 0;
    for (let start = 0, line = 1; start <= text.length; line++) {
      const newline = text.indexOf('\n', start);
      const end = newline === -1 ? text.length : newline;
      const lineText = text.slice(start, end);
      if (lineText.trim() !== '') {
        if (++records > BULK_MAX_RECORDS) throw tooManyRecords(source);
        let value: unknown;
        let problem: string | undefined;
        try {
          value = parseJson(lineText);
          const twice = firstDuplicateKey(lineText);
          if (twice !== undefined) problem = duplicateProblem(twice);
        } catch (error) {
          if (records === 1) refuseDelimited(lineText, source);
          problem = parseProblem(error);
        }
        if (take(value, problem, `line ${line}`, () => lineText.replace(/\r$/, ''))) {
          starts.push(start);
          ends.push(end);
        } else rejectedPositions.push(records);
      }
      start = end + 1;
    }
    count = starts.length;
    at = (index) => asSent(parseJson(text.slice(starts[index], ends[index]))).value as NewPet;
  }
  const refused = rejectedPositions.length;
  if (count === 0 && refused === 0) throw noPets(source);
  if (refused > 0 && (options.skipInvalid !== true || count === 0)) {
    throw badRecords(source, problems, refused);
  }
  return {
    count,
    at,
    ignoredIds,
    statusCaseChanged,
    rejected,
    inputPosition: positionsAround(rejectedPositions),
  };
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

function isJsonObject(line: string): boolean {
  try {
    const value = parseJson(line);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}

/** A JSON input whose first line is a CSV or TSV header: say so, rather than "not JSON". */
function refuseDelimited(firstLine: string, source: string): void {
  const format = delimitedHeader(firstLine.replace(/^\uFEFF/, ''));
  if (format === undefined) return;
  throw new UsageError(
    `${source} looks like ${format.toUpperCase()} (its first line is a header: ${firstLine.trim().slice(0, 80)}), not JSON; nothing was sent`,
    { hint: phrase`Give ${option('inputFormat', format)}, or name the file .${format}.` },
  );
}

/** The digest a record is recognised by when a run is resumed (its content, as given). */
export function recordDigest(pet: NewPet): string {
  return hash('sha256', stringifyJson(pet)).slice(0, 32);
}

/** What a journal keeps of an input, so a resume can tell whether anything in it changed. */
export interface InputDigests {
  /** Each record's digest, by 0-based position. */
  records: string[];
  /** The digest of the whole input: every record, in order. */
  whole: string;
  /** The first 8 bytes of each record's digest, base64: enough to name the first change. */
  compact: string;
}

/** Records given as data (each already checked): nothing set aside, each at its own place. */
export function givenRecords(pets: readonly NewPet[]): PetRecords {
  return {
    count: pets.length,
    at: (index) => pets[index]!,
    ignoredIds: 0,
    statusCaseChanged: 0,
    rejected: [],
    inputPosition: (index) => index + 1,
  };
}

export function digestInput(records: PetRecords): InputDigests {
  const digests = Array.from({ length: records.count }, (_, index) =>
    recordDigest(records.at(index)),
  );
  const compact = Buffer.from(digests.map((digest) => digest.slice(0, 16)).join(''), 'hex');
  return {
    records: digests,
    whole: hash('sha256', digests.join('\n')),
    compact: compact.toString('base64'),
  };
}

/** The 0-based position of the first record whose compact digest differs, if any does. */
export function firstChangedRecord(digests: InputDigests, compact: string): number | undefined {
  const journaled = Buffer.from(compact, 'base64');
  for (let index = 0; index < digests.records.length; index++) {
    const ours = digests.records[index]!.slice(0, 16);
    if (journaled.subarray(index * 8, index * 8 + 8).toString('hex') !== ours) return index;
  }
  return undefined;
}
