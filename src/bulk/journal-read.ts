import { parseHttpDate } from '../core/http-date.js';
import { UsageError } from '../core/errors.js';
import { parseJson } from '../core/json.js';
import { FileShapeError, readRegularFile } from '../core/read-file.js';
import { checkEntry, type JournalEntry, type RunHeader } from './journal-entries.js';
import { basename } from 'node:path';
import { recordKey } from './batch.js';
import {
  apply,
  doneState,
  settleQueued,
  type BeforeAttempt,
  type Queued,
  type RecordState,
  type RunRead,
  type UnknownSinceQueued,
} from './record-states.js';

export type { KeySent, RecordState } from './record-states.js';

/** The first run's header, and the state of every record any run sent. */
export interface JournalContents extends Omit<
  RunHeader,
  'type' | 'version' | 'at' | 'boot' | 'afterTornLine'
> {
  states: Map<number, RecordState>;
  /** When its first run started (ISO 8601). */
  started: string;
  /** Records queued and never journaled as sent, counted unknown all the same, and why. */
  unknownSinceQueued: UnknownSinceQueued;
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
  return new UsageError(
    code === 'ENOENT'
      ? `no journal ${path}: no such file, and no journal of a batch of that id`
      : `cannot read the journal ${path}: ${code}`,
    {
      hint: 'Give the path or the batch id the interrupted run named (petstore journal list shows them).',
    },
  );
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

/**
 * What a compacted journal's entry leaves out: the record's key, made again from the batch and
 * the input's name as its first run read it, and its digest, as the header keeps it.
 */
const decodedDigests = new WeakMap<RunHeader, Buffer>();

function doneKnown(
  header: RunHeader,
  record: number,
  attempt: number,
): { key: string; digest: string } | undefined {
  if (header.batch === undefined || header.digests === undefined) return undefined;
  // Decoded once per journal, not once per record.
  let digests = decodedDigests.get(header);
  if (digests === undefined) {
    digests = Buffer.from(header.digests, 'base64');
    decodedDigests.set(header, digests);
  }
  const digest = digests.subarray((record - 1) * 8, record * 8).toString('hex');
  if (digest.length !== 16) return undefined;
  const inputName = header.input === '-' ? '-' : basename(header.input);
  return { key: recordKey(header.batch, inputName, record, attempt), digest };
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
  /** The run whose lines are being read (its header's). */
  const run: RunRead = { boot: undefined, at: 0, index: -1, keys: [] };
  /** Per run, how far the service's clock was ahead of this machine's, where it said. */
  const serviceAhead = new Map<number, number>();
  const states = new Map<number, RecordState | Queued>();
  const before: BeforeAttempt = new Map();
  /** A line that is no entry, kept until what follows it says whether a crash tore it. */
  let torn: { line: number; why: string } | undefined;
  let started: string | undefined;
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
      started ??= entry.at;
      header = nextHeader(path, number, header, entry);
      Object.assign(run, { boot: entry.boot, at: Date.parse(entry.at), index: run.index + 1 });
      continue;
    }
    if (!header) throw notAJournal(path);
    if (entry.type === 'clock') {
      const ahead = parseHttpDate(entry.service) - Date.parse(entry.at);
      if (Number.isFinite(ahead) && !serviceAhead.has(run.index)) {
        serviceAhead.set(run.index, ahead);
      }
      continue;
    }
    if (entry.type === 'done') {
      const known = doneKnown(header, entry.record, entry.attempt ?? 1);
      if (known === undefined)
        throw damaged(path, number, 'a done entry in a journal without its batch or digests');
      states.set(entry.record, doneState(entry, known, run));
      continue;
    }
    const problem = apply(states, before, entry, run);
    if (problem) throw damaged(path, number, problem);
  }
  // Or when it is the last line, cut short: written with its line break, it was whole.
  if (torn && (torn.line !== number || bytes.at(-1) === 0x0a)) {
    throw damaged(path, torn.line, torn.why);
  }
  if (!header) throw notAJournal(path);
  for (const { keySent, run: index } of run.keys) {
    const ahead = serviceAhead.get(index);
    if (ahead !== undefined) keySent.byService = keySent.at + ahead;
  }
  const { input, records, target, service, batch, digest, digests, namedBatch, inputFormat } =
    header;
  const unknownSinceQueued: UnknownSinceQueued = { noBoot: 0, otherBoot: 0 };
  return {
    unknownSinceQueued,
    started: started ?? header.at,
    inputFormat,
    input,
    records,
    target,
    service,
    batch,
    digest,
    digests,
    namedBatch,
    states: settleQueued(states, before, boot, unknownSinceQueued),
  };
}
