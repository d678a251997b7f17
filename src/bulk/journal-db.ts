import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { parseJson, stringifyJson } from '../core/json.js';
import { isInt64 } from '../core/int64.js';
import type { Pet } from '../core/interface.js';
import type { ErrorSummary, RunHeader } from './journal-entries.js';
import type { KeySent, Queued, RecordState } from './record-states.js';

/**
 * The tables of a journal (see journal-store.ts), the statements it is written with, and a
 * record's state as a row and back. How its file is made, opened and locked: journal-file.ts.
 */

/**
 * The layout new journals are written in, and those this version reads: format 1 kept the
 * input's digests in one header column (at most 50,000 records); format 2 keeps a row per
 * record of the input (its position and digest) in `inputs`. Another is refused, never read
 * as one of these.
 */
export const FORMAT = 2;
export const READABLE_FORMATS: readonly unknown[] = [1, 2];

export const SCHEMA = `
CREATE TABLE journal (
  format INTEGER NOT NULL,
  batch TEXT NOT NULL,
  input TEXT NOT NULL,
  records INTEGER NOT NULL CHECK (records >= 1),
  target TEXT NOT NULL,
  service TEXT,
  started TEXT NOT NULL,
  digest TEXT,
  digests TEXT,
  named_batch INTEGER NOT NULL,
  input_format TEXT,
  skip_invalid INTEGER,
  shard TEXT,
  client TEXT,
  key_input TEXT,
  content TEXT
);
CREATE TABLE runs (
  run INTEGER PRIMARY KEY,
  at TEXT NOT NULL,
  boot TEXT,
  service_ahead_ms REAL,
  rejected INTEGER,
  trace TEXT
);
CREATE TABLE records (
  record INTEGER PRIMARY KEY,
  outcome TEXT NOT NULL CHECK (outcome IN ('queued', 'created', 'failed', 'unknown')),
  digest TEXT NOT NULL,
  key TEXT NOT NULL,
  attempt INTEGER NOT NULL,
  key_run INTEGER NOT NULL REFERENCES runs (run),
  queued_boot TEXT,
  pet TEXT,
  printed INTEGER,
  replayed INTEGER,
  error TEXT,
  prior TEXT
);
CREATE TABLE inputs (
  record INTEGER PRIMARY KEY,
  position INTEGER NOT NULL,
  digest BLOB NOT NULL
);
`;

/** The statements a journal is written with, each prepared once. */
export type Statements = Record<
  | 'begin'
  | 'commit'
  | 'upsert'
  | 'queued'
  | 'remove'
  | 'sent'
  | 'created'
  | 'printed'
  | 'clock'
  | 'state',
  StatementSync
>;

export function statements(db: DatabaseSync): Statements {
  const sql = (text: string) => db.prepare(text);
  return {
    begin: sql('BEGIN'),
    commit: sql('COMMIT'),
    upsert: sql(
      `INSERT OR REPLACE INTO records (record, outcome, digest, key, attempt, key_run, queued_boot, pet, printed, replayed, error, prior)
       VALUES (:record, :outcome, :digest, :key, :attempt, :key_run, :queued_boot, :pet, :printed, :replayed, :error, :prior)`,
    ),
    // A record's first row: queued, nothing before it.
    queued: sql(
      "INSERT INTO records (record, outcome, digest, key, attempt, key_run, queued_boot) VALUES (?, 'queued', ?, ?, ?, ?, ?)",
    ),
    remove: sql('DELETE FROM records WHERE record = ?'),
    // The three changes most records go through, each a column or two of its row.
    // Of many records at once: a JSON array of their numbers.
    sent: sql(
      "UPDATE records SET outcome = 'unknown', queued_boot = NULL WHERE record IN (SELECT value FROM json_each(?))",
    ),
    created: sql(
      "UPDATE records SET outcome = 'created', pet = ?, printed = 0, replayed = ?, error = NULL, prior = NULL WHERE record = ?",
    ),
    printed: sql('UPDATE records SET printed = 1 WHERE record IN (SELECT value FROM json_each(?))'),
    clock: sql('UPDATE runs SET service_ahead_ms = ? WHERE run = ? AND service_ahead_ms IS NULL'),
    state: sql('SELECT * FROM records WHERE record = ?'),
  };
}

export type Row = Record<string, unknown>;

/** The batch's header as its first run gives it, in a new journal's tables (see SCHEMA). */
export function writeHeader(db: DatabaseSync, header: RunHeader): void {
  db.prepare(
    `INSERT INTO journal VALUES (:format, :batch, :input, :records, :target, :service, :started, :digest, :digests, :named, :inputFormat, :skipInvalid, :shard, :client, :keyInput, :content)`,
  ).run({
    format: FORMAT,
    batch: header.batch,
    input: header.input,
    records: header.records,
    target: header.target,
    service: header.service ?? null,
    started: header.at,
    digest: header.digest ?? null,
    digests: header.digests ?? null,
    named: Number(header.namedBatch === true),
    inputFormat: header.inputFormat ?? null,
    skipInvalid: Number(header.skipInvalid === true),
    shard: header.shard ?? null,
    client: header.client ?? null,
    keyInput: header.keyInput ?? null,
    content: header.content ?? null,
  });
}

/**
 * The columns later versions added to a format-1 journal (a run that set invalid records
 * aside, how many, its trace), added to one an earlier version wrote when a run continues it.
 * Read alone, such a journal lacks them: read as none.
 */
export function addLaterColumns(db: DatabaseSync): void {
  const has = (table: string, column: string) =>
    (db.prepare(`PRAGMA table_info(${table})`).all() as Row[]).some((row) => row.name === column);
  const later = [
    ['journal', 'skip_invalid', 'INTEGER'],
    ['runs', 'rejected', 'INTEGER'],
    ['runs', 'trace', 'TEXT'],
  ];
  for (const [table, column, type] of later) {
    if (!has(table!, column!)) db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${type}`);
  }
}

/** A state as a row, and back. */
export function stateRow(record: number, state: RecordState | Queued) {
  const created = state.outcome === 'created' ? state : undefined;
  const failed = state.outcome === 'failed' || state.outcome === 'unknown' ? state : undefined;
  return {
    record,
    outcome: state.outcome,
    digest: state.digest,
    key: state.key,
    attempt: state.attempt,
    key_run: state.keySent.run,
    queued_boot: state.outcome === 'queued' ? (state.boot ?? null) : null,
    pet: created ? stringifyJson(created.pet) : null,
    printed: created ? Number(created.printed) : null,
    replayed: created ? Number(created.replayed) : null,
    error: failed?.error ? JSON.stringify(failed.error) : null,
  };
}

/** What is wrong with a row petstore would never have written, if anything. */
function rowProblem(row: Row): string | undefined {
  const text = (value: unknown) => typeof value === 'string' && value !== '';
  if (!text(row.digest) || !text(row.key)) return 'a record without its digest or key';
  if (typeof row.attempt !== 'number' || !Number.isSafeInteger(row.attempt) || row.attempt < 1) {
    return 'a record whose attempt is not a whole number from 1';
  }
  if (row.outcome === 'created') {
    const pet = typeof row.pet === 'string' ? (parseJson(row.pet) as Partial<Pet> | null) : null;
    if (typeof pet !== 'object' || pet === null || Array.isArray(pet) || !isInt64(pet.id)) {
      return 'a created record without its pet';
    }
  }
  if (row.error !== null && row.error !== undefined) {
    const error =
      typeof row.error === 'string' ? (parseJson(row.error) as Partial<ErrorSummary> | null) : null;
    const whole =
      typeof error?.code === 'string' &&
      typeof error.message === 'string' &&
      Number.isInteger(error.status);
    if (!whole) return 'an error without its code, message or status';
  }
  return undefined;
}

/** The state a row holds; a row petstore would never have written is thrown as damage. */
function rowState(row: Row, keySent: KeySent): RecordState | Queued {
  const problem = rowProblem(row);
  if (problem !== undefined) throw new Error(`record ${String(row.record)}: ${problem}`);
  const common = {
    digest: row.digest as string,
    key: row.key as string,
    attempt: Number(row.attempt),
    keySent,
  };
  const outcome = row.outcome as (RecordState | Queued)['outcome'];
  if (outcome === 'queued') {
    return { outcome, ...common, boot: (row.queued_boot as string | null) ?? undefined };
  }
  if (outcome === 'created') {
    return {
      outcome,
      ...common,
      pet: parseJson(row.pet as string) as Pet,
      printed: row.printed === 1,
      replayed: row.replayed === 1,
    };
  }
  const error = typeof row.error === 'string' ? (parseJson(row.error) as ErrorSummary) : undefined;
  return { outcome, ...common, ...(error ? { error } : {}) };
}

/**
 * One row of the records table: the record, its state, and its state before the attempt under
 * way (if any). `sentIn` gives when the run of that number started. A row petstore would never
 * have written is thrown as damage.
 */
export function recordRow(
  row: Row,
  records: number,
  sentIn: (run: number) => KeySent,
): { record: number; state: RecordState | Queued; prior: RecordState | undefined } {
  const record = Number(row.record);
  if (record < 1 || record > records) {
    throw new Error(`record ${record}, past the ${records} of the input`);
  }
  const state = rowState(row, sentIn(Number(row.key_run)));
  if (typeof row.prior !== 'string') return { record, state, prior: undefined };
  const prior = parseJson(row.prior) as { state?: Row | null; keyRun: number } | null;
  if (
    typeof prior?.state !== 'object' ||
    prior.state === null ||
    prior.state.outcome === 'queued'
  ) {
    throw new Error(`record ${record}: an earlier attempt that is not one`);
  }
  return { record, state, prior: rowState(prior.state, sentIn(prior.keyRun)) as RecordState };
}

/** How many rows a reader takes at a time: a run may write between two pages. */
export const PAGE = 512;

/**
 * The input's records as a journal keeps them (format 2): each one's position in the input
 * and the first 8 bytes of its digest (hex), in order from the one after `after`.
 */
export function* inputRows(
  db: DatabaseSync,
  after = 0,
): Generator<{ record: number; position: number; digest: string }> {
  const page = db.prepare(
    'SELECT record, position, lower(hex(digest)) AS digest FROM inputs WHERE record > ? ORDER BY record LIMIT ?',
  );
  for (let from = after; ;) {
    const rows = page.all(from, PAGE) as { record: number; position: number; digest: string }[];
    yield* rows;
    if (rows.length < PAGE) return;
    from = rows.at(-1)!.record;
  }
}
