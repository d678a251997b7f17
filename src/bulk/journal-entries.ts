import { isInt64 } from '../core/int64.js';
import { stringifyJson } from '../core/json.js';
import type { Pet } from '../core/interface.js';

/**
 * The lines of a bulk run's journal, and the check each line read back must pass. A journal is
 * an append-only NDJSON file: a header per run, then per record `queued` (synced to disk, a few
 * records ahead, before any of them goes out), `sending` (written to the file just before its
 * request goes out), its outcome, and `printed` once its line left the process.
 */

export type ErrorSummary = { code: string; message: string; status: number };

export interface RunHeader {
  type: 'run' | 'resume';
  version: 1;
  /** The input's absolute path, or "-" for stdin. */
  input: string;
  records: number;
  /** How the run named its target, and what it sent to (the base URL, or "sandbox"). */
  target: string;
  service?: string | undefined;
  at: string;
  /** The batch every key of the run is made from (absent in journals of earlier versions). */
  batch?: string | undefined;
  /** The digest of the whole input, and each record's (8 bytes each, base64). */
  digest?: string | undefined;
  digests?: string | undefined;
  /** The machine's boot the run wrote in (see bootId): what a kill leaves is whole within it. */
  boot?: string | undefined;
  /** The line before this header was torn by a crash, and this run ended it. */
  afterTornLine?: boolean | undefined;
  /**
   * The batch was given (--batch-id, PETSTORE_BATCH_ID), not made for this journal: a run
   * with another journal may have sent its keys. Absent in journals of earlier versions.
   */
  namedBatch?: boolean | undefined;
  /**
   * The format the input was read in (json, ndjson, csv, tsv), so a resume reads it alike;
   * absent: as its name and first line say (journals of earlier versions read JSON only).
   */
  inputFormat?: string | undefined;
}

export type RecordEntry =
  /** About to be sent, with its key: synced to disk before it (or any after it) is sent. */
  | { type: 'queued'; record: number; digest: string; key: string }
  /** Sent now (journals of earlier versions give the digest and key here, with no queued). */
  | { type: 'sending'; record: number; digest?: string | undefined; key?: string | undefined }
  | { type: 'created'; record: number; pet: Pet; replayed?: boolean | undefined }
  | { type: 'printed'; record: number }
  /** A record journaled as sending that the run then did not send after all. */
  | { type: 'withdrawn'; record: number }
  | { type: 'failed' | 'unknown'; record: number; error: ErrorSummary };

/**
 * The service's clock (its Date header) as one answer of the run gave it, and this machine's
 * at that moment: how long ago the run's keys were sent, by the service's own clock.
 */
export interface ClockEntry {
  type: 'clock';
  at: string;
  service: string;
}

/**
 * A record's whole story in a compacted journal (see journal-compact.ts): its outcome, the
 * attempt that decided it (its key is made again from the batch), the pet it became or the
 * error that refused it. `printed: false` for a pet no run printed.
 */
export interface DoneEntry {
  type: 'done';
  record: number;
  attempt?: number | undefined;
  pet?: Pet | undefined;
  printed?: false | undefined;
  replayed?: true | undefined;
  error?: ErrorSummary | undefined;
}

export type JournalEntry = RunHeader | RecordEntry | ClockEntry | DoneEntry;

/** An entry made ready to append, so appending it later costs one system call. */
export type EncodedEntry = Buffer;

export function encodeEntry(entry: JournalEntry): EncodedEntry {
  return Buffer.from(stringifyJson(entry) + '\n');
}

type Fields = Record<string, unknown>;

const isObject = (value: unknown): value is Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isText = (value: unknown): value is string => typeof value === 'string';
const isOptionalText = (value: unknown) => value === undefined || isText(value);
const isCount = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 1;

function headerProblem(entry: Fields): string | undefined {
  if (entry.version !== 1) return 'written by another version';
  if (!isText(entry.input) || !isText(entry.target) || !isText(entry.at)) {
    return 'a run header without its input, target or time';
  }
  if (!isCount(entry.records)) return 'a run header whose record count is not a whole number';
  const optional = [
    entry.service,
    entry.batch,
    entry.digest,
    entry.digests,
    entry.boot,
    entry.inputFormat,
  ];
  if (!optional.every(isOptionalText)) return 'a run header with a field of the wrong type';
  if (entry.batch === '') return 'a run header with an empty batch';
  const flags = [entry.afterTornLine, entry.namedBatch];
  if (!flags.every((flag) => flag === undefined || typeof flag === 'boolean')) {
    return 'a run header with a field of the wrong type';
  }
  return undefined;
}

function errorProblem(error: unknown): string | undefined {
  if (!isObject(error)) return 'an outcome without its error';
  const { code, message, status } = error;
  return isText(code) && isText(message) && typeof status === 'number' && Number.isInteger(status)
    ? undefined
    : 'an error without its code, message or status';
}

function recordProblem(entry: Fields, records: number): string | undefined {
  const { record } = entry;
  if (!isCount(record)) return 'a record number that is not a whole number from 1';
  if (record > records) return `record ${record}, past the ${records} the run read`;
  switch (entry.type) {
    case 'queued':
      return isText(entry.digest) && isText(entry.key) && entry.key !== ''
        ? undefined
        : 'a queued entry without its digest or key';
    case 'sending':
      if (entry.digest === undefined && entry.key === undefined) return undefined;
      return isText(entry.digest) && isText(entry.key) && entry.key !== ''
        ? undefined
        : 'a sending entry without its digest or key';
    case 'created':
      if (!isObject(entry.pet) || !isInt64(entry.pet.id)) return 'a created entry without a pet';
      return entry.replayed === undefined || typeof entry.replayed === 'boolean'
        ? undefined
        : 'a created entry with a field of the wrong type';
    case 'printed':
    case 'withdrawn':
      return undefined;
    case 'failed':
    case 'unknown':
      return errorProblem(entry.error);
    default:
      return 'an entry of no known type';
  }
}

function doneProblem(entry: Fields, records: number): string | undefined {
  const { record, attempt, pet, error } = entry;
  if (!isCount(record)) return 'a record number that is not a whole number from 1';
  if (record > records) return `record ${record}, past the ${records} the run read`;
  if (attempt !== undefined && !isCount(attempt)) return 'a done entry with a bad attempt';
  if ((pet === undefined) === (error === undefined)) return 'a done entry without one outcome';
  if (pet !== undefined && (!isObject(pet) || !isInt64(pet.id)))
    return 'a done entry without a pet';
  if (error !== undefined) return errorProblem(error);
  const flags = entry.printed === undefined || entry.printed === false;
  return flags && (entry.replayed === undefined || entry.replayed === true)
    ? undefined
    : 'a done entry with a field of the wrong type';
}

/**
 * The entry a parsed line holds, or what is wrong with it. `records` is the count of the run
 * header read before it (undefined before any): a record entry must name one of them.
 */
export function checkEntry(value: unknown, records: number | undefined): JournalEntry | string {
  if (!isObject(value)) return 'not an entry (a JSON object)';
  if (value.type === 'run' || value.type === 'resume') {
    return headerProblem(value) ?? (value as unknown as RunHeader);
  }
  if (records === undefined) return 'no run header before it';
  if (value.type === 'done') return doneProblem(value, records) ?? (value as unknown as DoneEntry);
  if (value.type === 'clock') {
    const valid = isText(value.at) && isText(value.service);
    return valid ? (value as unknown as ClockEntry) : 'a clock entry without its times';
  }
  return recordProblem(value, records) ?? (value as unknown as RecordEntry);
}
