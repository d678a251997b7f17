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
export type RecordState =
  | {
      outcome: 'created';
      digest: string;
      key: string;
      pet: Pet;
      printed: boolean;
      replayed: boolean;
    }
  | { outcome: 'failed' | 'unknown'; digest: string; key: string; error?: ErrorSummary };

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
type Queued = { outcome: 'queued'; digest: string; key: string; boot: string | undefined };

/** Applies one record entry to the states; returns what is wrong with it, if anything. */
function apply(
  states: Map<number, RecordState | Queued>,
  entry: RecordEntry,
  boot: string | undefined,
): string | undefined {
  const known = states.get(entry.record);
  if (entry.type === 'queued') {
    states.set(entry.record, { outcome: 'queued', digest: entry.digest, key: entry.key, boot });
    return undefined;
  }
  if (entry.type === 'sending') {
    const digest = entry.digest ?? known?.digest;
    const key = entry.key ?? known?.key;
    if (digest === undefined || key === undefined) {
      return `record ${entry.record} sent, never queued`;
    }
    states.set(entry.record, { outcome: 'unknown', digest, key });
    return undefined;
  }
  if (!known || known.outcome === 'queued') {
    if (entry.type === 'withdrawn' && known) {
      states.delete(entry.record);
      return undefined;
    }
    return `an outcome for record ${entry.record}, never sent`;
  }
  switch (entry.type) {
    case 'created':
      states.set(entry.record, {
        outcome: 'created',
        digest: known.digest,
        key: known.key,
        pet: entry.pet,
        printed: false,
        replayed: entry.replayed === true,
      });
      return undefined;
    case 'withdrawn':
      if (known.outcome === 'unknown') states.delete(entry.record);
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
  boot: string | undefined,
): Map<number, RecordState> {
  const settled = new Map<number, RecordState>();
  for (const [record, state] of states) {
    if (state.outcome !== 'queued') settled.set(record, state);
    else if (state.boot === undefined || state.boot !== boot) {
      settled.set(record, { outcome: 'unknown', digest: state.digest, key: state.key });
    }
  }
  return settled;
}

/**
 * Whether the line at `index` that is not JSON can be a line torn by a crash: the last one,
 * with no line break after it (every entry is written with its line break, in one write), or
 * one a resumed run found torn and ended before its header.
 */
function tornByCrash(lines: string[], index: number, endsWithBreak: boolean): boolean {
  const rest = lines.slice(index + 1).findIndex((line) => line !== '');
  if (rest === -1) return index === lines.length - 1 && !endsWithBreak;
  try {
    const next = parseJson(lines[index + 1 + rest]!) as Partial<RunHeader> | null;
    return next?.type === 'resume' && next.afterTornLine === true;
  } catch {
    return false;
  }
}

/**
 * Reads a journal back. A line torn by a crash (the last one, or the last before a resumed run
 * began) is ignored; any other line that is not a well-formed entry makes the journal damaged.
 */
export function readJournal(path: string, boot?: string): Promise<JournalContents> {
  return new Promise((resolve) => resolve(readJournalNow(path, boot)));
}

function readJournalNow(path: string, boot: string | undefined): JournalContents {
  let text: string;
  try {
    text = readRegularFile(path, JOURNAL_MAX_BYTES).toString('utf8');
  } catch (error) {
    throw journalReadError(path, error);
  }
  const lines = text.split('\n');
  let header: RunHeader | undefined;
  /** The boot of the run whose lines are being read (its header's). */
  let writtenIn: string | undefined;
  const states = new Map<number, RecordState | Queued>();
  for (const [index, line] of lines.entries()) {
    if (line === '') continue;
    let parsed: unknown;
    try {
      parsed = parseJson(line);
    } catch {
      if (tornByCrash(lines, index, text.endsWith('\n'))) continue;
      if (!header) throw notAJournal(path);
      throw damaged(path, index + 1, 'not JSON');
    }
    const entry = checkEntry(parsed, header?.records);
    if (typeof entry === 'string') {
      if (!header) throw notAJournal(path);
      throw damaged(path, index + 1, entry);
    }
    if (isRunHeader(entry)) {
      if (!header) header = entry;
      else if (entry.records !== header.records) {
        throw damaged(path, index + 1, 'a resumed run of another input');
      } else if (header.batch === undefined) {
        // A journal of an earlier version: its first resume chose the batch.
        header = { ...header, batch: entry.batch };
      } else if (entry.batch !== header.batch) {
        throw damaged(path, index + 1, 'a resumed run of another batch');
      }
      writtenIn = entry.boot;
      continue;
    }
    const problem = apply(states, entry, writtenIn);
    if (problem) throw damaged(path, index + 1, problem);
  }
  if (!header) throw notAJournal(path);
  const { input, records, target, service, batch, digest, digests } = header;
  return {
    input,
    records,
    target,
    service,
    batch,
    digest,
    digests,
    states: settleQueued(states, boot),
  };
}
