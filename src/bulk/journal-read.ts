import { UsageError } from '../core/errors.js';
import { parseJson } from '../core/json.js';
import { FileShapeError, readRegularFile } from '../core/read-file.js';
import type { Pet } from '../core/types.js';
import {
  checkEntry,
  type ErrorSummary,
  type JournalEntry,
  type RecordEntry,
  type RunHeader,
} from './journal-entries.js';

/** What the journal says of one record (1-based position), after every entry is applied. */
export type RecordState = (
  | {
      outcome: 'created';
      digest: string;
      key: string;
      pet: Pet;
      printed: boolean;
      replayed: boolean;
    }
  | { outcome: 'failed' | 'unknown'; digest: string; key: string; error?: ErrorSummary }
) & {
  /** Which attempt at the record its key is: 1 for the first, one more for each new key. */
  attempt: number;
};

/** The first run's header, and the state of every record any run sent. */
export interface JournalContents extends Omit<
  RunHeader,
  'type' | 'version' | 'at' | 'boot' | 'afterTornLine'
> {
  states: Map<number, RecordState>;
}

/** A journal of a million records is some 300 MiB; past this it is not one. */
const JOURNAL_MAX_BYTES = 1024 * 1024 * 1024;

export function journalReadError(path: string, error: unknown): UsageError {
  if (error instanceof FileShapeError) {
    return new UsageError(`cannot read the journal: ${error.message}`, {
      hint: 'Give --resume the journal file a run named on its first stderr line (Journal: PATH).',
    });
  }
  const code = (error as NodeJS.ErrnoException).code ?? 'unknown error';
  return new UsageError(`cannot read the journal ${path}: ${code}`, {
    hint: 'Give the path the first line of the interrupted run named.',
  });
}

function notAJournal(path: string): UsageError {
  return new UsageError(`${path} is not a petstore journal: it does not start with a run header`, {
    hint: 'Give --resume the journal a run named on its first stderr line (Journal: PATH), not its input.',
  });
}

function damaged(path: string, line: number, why: string): UsageError {
  return new UsageError(`the journal ${path} is damaged at line ${line}: ${why}`, {
    hint: 'A journal is only ever appended to by petstore; restore it from where it came.',
  });
}

function isRunHeader(entry: JournalEntry): entry is RunHeader {
  return entry.type === 'run' || entry.type === 'resume';
}

/** A record journaled as queued and not yet as sent, with the boot it was queued in. */
type Queued = {
  outcome: 'queued';
  digest: string;
  key: string;
  attempt: number;
  boot: string | undefined;
};

/** The attempt a key is, after what the record was sent with before (if anything). */
function attemptOf(key: string, known: RecordState | Queued | undefined): number {
  if (!known) return 1;
  return known.key === key ? known.attempt : known.attempt + 1;
}

/**
 * Each record's state before the attempt now under way (queued or sent, no outcome yet): what
 * it is again when that attempt is withdrawn, or was never sent. A failed record queued for a
 * retry and then not sent is still failed, with the key it failed with.
 */
type BeforeAttempt = Map<number, RecordState>;

/** Applies one record entry to the states; returns what is wrong with it, if anything. */
function apply(
  states: Map<number, RecordState | Queued>,
  before: BeforeAttempt,
  entry: RecordEntry,
  boot: string | undefined,
): string | undefined {
  const known = states.get(entry.record);
  const startAttempt = () => {
    if (known === undefined || known.outcome === 'queued') return;
    before.set(entry.record, known);
  };
  const withdraw = () => {
    const earlier = before.get(entry.record);
    if (earlier) states.set(entry.record, earlier);
    else states.delete(entry.record);
    before.delete(entry.record);
  };
  if (entry.type === 'queued') {
    startAttempt();
    const attempt = attemptOf(entry.key, known);
    states.set(entry.record, {
      outcome: 'queued',
      digest: entry.digest,
      key: entry.key,
      attempt,
      boot,
    });
    return undefined;
  }
  if (entry.type === 'sending') {
    // Only a record that failed or is unknown is ever sent again.
    if (known?.outcome === 'created')
      return `record ${entry.record} sent again after it was created`;
    const digest = entry.digest ?? known?.digest;
    const key = entry.key ?? known?.key;
    if (digest === undefined || key === undefined) {
      return `record ${entry.record} sent, never queued`;
    }
    const attempt = entry.key === undefined ? (known?.attempt ?? 1) : attemptOf(key, known);
    startAttempt();
    states.set(entry.record, { outcome: 'unknown', digest, key, attempt });
    return undefined;
  }
  if (!known || known.outcome === 'queued') {
    if (entry.type === 'withdrawn' && known) {
      withdraw();
      return undefined;
    }
    return `an outcome for record ${entry.record}, never sent`;
  }
  if (entry.type !== 'withdrawn' && entry.type !== 'printed') before.delete(entry.record);
  switch (entry.type) {
    case 'created':
      if (known.outcome === 'created') return `record ${entry.record} created twice`;
      states.set(entry.record, {
        outcome: 'created',
        digest: known.digest,
        key: known.key,
        pet: entry.pet,
        printed: false,
        replayed: entry.replayed === true,
        attempt: known.attempt,
      });
      return undefined;
    case 'withdrawn':
      if (known.outcome === 'unknown') withdraw();
      return undefined;
    case 'printed':
      if (known.outcome !== 'created') return `record ${entry.record} printed, never created`;
      known.printed = true;
      return undefined;
    default:
      states.set(entry.record, {
        outcome: entry.type,
        digest: known.digest,
        key: known.key,
        error: entry.error,
        attempt: known.attempt,
      });
      return undefined;
  }
}

/**
 * What became of records queued and never journaled as sent. Within the boot they were queued
 * in, the file holds every line written before a kill, so a record with no `sending` line was
 * never sent. After a new boot (a power loss), a `sending` line not yet synced may be lost:
 * such a record may have been sent, and is unknown.
 */
function settleQueued(
  states: Map<number, RecordState | Queued>,
  before: BeforeAttempt,
  boot: string | undefined,
): Map<number, RecordState> {
  const settled = new Map<number, RecordState>();
  for (const [record, state] of states) {
    if (state.outcome !== 'queued') settled.set(record, state);
    else if (state.boot === undefined || state.boot !== boot) {
      const { digest, key, attempt } = state;
      settled.set(record, { outcome: 'unknown', digest, key, attempt });
    } else {
      // Never sent: the record is what it was before (failed, say), or was never sent at all.
      const earlier = before.get(record);
      if (earlier) settled.set(record, earlier);
    }
  }
  return settled;
}

function resumesAfterTornLine(line: string): boolean {
  try {
    const next = parseJson(line) as Partial<RunHeader> | null;
    return next?.type === 'resume' && next.afterTornLine === true;
  } catch {
    return false;
  }
}

/**
 * The journal's header after `entry`: the first must be a run's, every later one a resume of
 * the same input and batch (a second run header is two journals joined).
 */
function nextHeader(
  path: string,
  line: number,
  header: RunHeader | undefined,
  entry: RunHeader,
): RunHeader {
  if (!header) {
    if (entry.type !== 'run') throw notAJournal(path);
    return entry;
  }
  if (entry.type === 'run') throw damaged(path, line, 'a second run header (two journals joined)');
  if (entry.records !== header.records) throw damaged(path, line, 'a resumed run of another input');
  // A journal of an earlier version: its first resume chose the batch.
  if (header.batch === undefined) return { ...header, batch: entry.batch };
  if (entry.batch !== header.batch) throw damaged(path, line, 'a resumed run of another batch');
  return header;
}

/** The lines of a file, decoded one at a time: no string as large as the file is ever made. */
function* linesOf(bytes: Buffer): Generator<string> {
  for (let start = 0; start < bytes.length;) {
    const end = bytes.indexOf(0x0a, start);
    const stop = end === -1 ? bytes.length : end;
    yield bytes.toString('utf8', start, stop);
    start = stop + 1;
  }
}

/**
 * What a line cut short by a crash can hold: the start of an entry as the writer writes it
 * (`{"type":"…`), or, after a power loss, the zeros a file system leaves where data was lost.
 */
function tornText(line: string): boolean {
  const start = '{"type":"';
  return start.startsWith(line) || line.startsWith(start) || /^\0+$/.test(line);
}

/**
 * Reads a journal back. A line torn by a crash (the last one, or the last before a resumed run
 * began) is ignored; any other line that is not a well-formed entry makes the journal damaged.
 */
export function readJournal(path: string, boot?: string): Promise<JournalContents> {
  return new Promise((resolve) => resolve(readJournalNow(path, boot)));
}

function readJournalNow(path: string, boot: string | undefined): JournalContents {
  let bytes: Buffer;
  try {
    bytes = readRegularFile(path, JOURNAL_MAX_BYTES);
  } catch (error) {
    throw journalReadError(path, error);
  }
  let header: RunHeader | undefined;
  /** The boot of the run whose lines are being read (its header's). */
  let writtenIn: string | undefined;
  const states = new Map<number, RecordState | Queued>();
  const before: BeforeAttempt = new Map();
  /** A line that is no entry, kept until what follows it says whether a crash tore it. */
  let torn: { line: number; why: string } | undefined;
  let number = 0;
  for (const line of linesOf(bytes)) {
    number++;
    if (torn) {
      // A line is torn by a crash only when the run that resumed after it said so.
      if (!header) throw notAJournal(path);
      if (!resumesAfterTornLine(line)) throw damaged(path, torn.line, torn.why);
      torn = undefined;
    }
    if (line === '') {
      if (!header) throw notAJournal(path);
      throw damaged(path, number, 'an empty line');
    }
    let parsed: unknown;
    try {
      parsed = parseJson(line);
    } catch {
      // Torn only if nothing but a resume that found it torn comes after it (checked next).
      torn = tornText(line) ? { line: number, why: 'not JSON' } : undefined;
      if (torn) continue;
      if (!header) throw notAJournal(path);
      throw damaged(path, number, 'not JSON');
    }
    const entry = checkEntry(parsed, header?.records);
    if (typeof entry === 'string') {
      if (!header) throw notAJournal(path);
      throw damaged(path, number, entry);
    }
    if (isRunHeader(entry)) {
      header = nextHeader(path, number, header, entry);
      writtenIn = entry.boot;
      continue;
    }
    if (!header) throw notAJournal(path);
    const problem = apply(states, before, entry, writtenIn);
    if (problem) throw damaged(path, number, problem);
  }
  // Or when it is the last line, cut short: written with its line break, it was whole.
  if (torn && (torn.line !== number || bytes.at(-1) === 0x0a)) {
    throw damaged(path, torn.line, torn.why);
  }
  if (!header) throw notAJournal(path);
  const { input, records, target, service, batch, digest, digests, namedBatch } = header;
  return {
    input,
    records,
    target,
    service,
    batch,
    digest,
    digests,
    namedBatch,
    states: settleQueued(states, before, boot),
  };
}
