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
export interface JournalContents extends Omit<RunHeader, 'type' | 'version' | 'at'> {
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

/** Applies one record entry to the states; returns what is wrong with it, if anything. */
function apply(states: Map<number, RecordState>, entry: RecordEntry): string | undefined {
  const known = states.get(entry.record);
  if (entry.type === 'sending') {
    states.set(entry.record, { outcome: 'unknown', digest: entry.digest, key: entry.key });
    return undefined;
  }
  if (!known) return `an outcome for record ${entry.record}, never sent`;
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
 * Reads a journal back. A line torn by a crash (the last one, or the last before a resumed run
 * began) is ignored; any other line that is not a well-formed entry makes the journal damaged.
 */
export function readJournal(path: string): Promise<JournalContents> {
  return new Promise((resolve) => resolve(readJournalNow(path)));
}

function readJournalNow(path: string): JournalContents {
  let text: string;
  try {
    text = readRegularFile(path, JOURNAL_MAX_BYTES).toString('utf8');
  } catch (error) {
    throw journalReadError(path, error);
  }
  const lines = text.split('\n');
  let header: RunHeader | undefined;
  const states = new Map<number, RecordState>();
  for (const [index, line] of lines.entries()) {
    if (line === '') continue;
    let parsed: unknown;
    try {
      parsed = parseJson(line);
    } catch {
      const next = lines.slice(index + 1).find((l) => l !== '');
      if (next === undefined || next.startsWith('{"type":"resume"')) continue;
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
      continue;
    }
    const problem = apply(states, entry);
    if (problem) throw damaged(path, index + 1, problem);
  }
  if (!header) throw notAJournal(path);
  const { input, records, target, service, batch, digest, digests } = header;
  return { input, records, target, service, batch, digest, digests, states };
}
