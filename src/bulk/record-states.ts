import type { Pet } from '../core/interface.js';
import type { ErrorSummary, RecordEntry, RunHeader } from './journal-entries.js';

/**
 * What a journal's record entries make of each record: its outcome, its key, which attempt
 * that key is and when it was first sent. The journal (journal-store.ts) applies each entry as
 * the run gives it, and a reader settles what was queued and never sent.
 */

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
  /**
   * When its key was first sent, at the latest: the start of the run that first sent it (ms
   * since the epoch), by this machine's clock and, where the run journaled the service's, by
   * the service's.
   */
  keySent: KeySent;
};

export interface KeySent {
  at: number;
  byService: number | undefined;
  /** The run (its 0-based number in the journal) that first sent the key. */
  run: number;
}

/** A record journaled as queued and not yet as sent, with the boot it was queued in. */
export type Queued = {
  outcome: 'queued';
  digest: string;
  key: string;
  attempt: number;
  keySent: KeySent;
  boot: string | undefined;
};

/** The run whose lines are being read: its boot, when it started, and its place. */
export interface RunRead {
  boot: string | undefined;
  at: number;
  index: number;
}

/**
 * The attempt a key is, after what the record was sent with before (if anything), and when it
 * was first sent: a key new to the record was first sent in this run.
 */
function attemptOf(
  key: string,
  known: RecordState | Queued | undefined,
  run: RunRead,
): { attempt: number; keySent: KeySent } {
  if (known?.key === key) return { attempt: known.attempt, keySent: known.keySent };
  const keySent: KeySent = { at: run.at, byService: undefined, run: run.index };
  return { attempt: known ? known.attempt + 1 : 1, keySent };
}

/**
 * Each record's state before the attempt now under way (queued or sent, no outcome yet): what
 * it is again when that attempt is withdrawn, or was never sent. A failed record queued for a
 * retry and then not sent is still failed, with the key it failed with.
 */
export type BeforeAttempt = Map<number, RecordState>;

/** Applies one record entry to the states; returns what is wrong with it, if anything. */
export function apply(
  states: Map<number, RecordState | Queued>,
  before: BeforeAttempt,
  entry: RecordEntry,
  run: RunRead,
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
    states.set(entry.record, {
      outcome: 'queued',
      digest: entry.digest,
      key: entry.key,
      ...attemptOf(entry.key, known, run),
      boot: run.boot,
    });
    return undefined;
  }
  if (entry.type === 'sending') {
    // Only a record that failed or is unknown is ever sent again.
    if (known?.outcome === 'created')
      return `record ${entry.record} sent again after it was created`;
    const digest = known?.digest;
    const key = known?.key;
    if (digest === undefined || key === undefined) {
      return `record ${entry.record} sent, never queued`;
    }
    const attempt = attemptOf(key, known, run);
    startAttempt();
    states.set(entry.record, { outcome: 'unknown', digest, key, ...attempt });
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
        keySent: known.keySent,
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
        keySent: known.keySent,
      });
      return undefined;
  }
}

/**
 * Records queued and never journaled as sent that count as unknown, and why: the run that
 * queued them, or this one, could not tell the machine's boot (`noBoot`); or the machine has
 * booted since (`otherBoot`: a power loss may have lost a line not yet on disk).
 */
export interface UnknownSinceQueued {
  /** Their 1-based positions, in order. */
  noBoot: number[];
  otherBoot: number[];
}

/**
 * What became of records queued and never journaled as sent. Within the boot they were queued
 * in, the file holds every line written before a kill, so a record with no `sending` line was
 * never sent. After a new boot (a power loss), a `sending` line not yet synced may be lost:
 * such a record may have been sent, and is unknown.
 */
export function settleQueued(
  states: Map<number, RecordState | Queued>,
  before: BeforeAttempt,
  boot: string | undefined,
  widened: UnknownSinceQueued = { noBoot: [], otherBoot: [] },
): Map<number, RecordState> {
  const settled = new Map<number, RecordState>();
  for (const [record, state] of [...states].sort(([a], [b]) => a - b)) {
    if (state.outcome !== 'queued') {
      settled.set(record, state);
      continue;
    }
    const queued = settledQueued(state, before.get(record), boot);
    if (queued.widened !== undefined) widened[queued.widened].push(record);
    if (queued.state !== undefined) settled.set(record, queued.state);
  }
  return settled;
}

/**
 * A record journaled as queued and not yet as sent, settled as a reader on this machine now
 * sees it (see settleQueued): what it was before that attempt (undefined: never sent), or
 * unknown, and why (`widened`).
 */
export function settledQueued(
  state: Queued,
  prior: RecordState | undefined,
  boot: string | undefined,
): { state: RecordState | undefined; widened?: 'noBoot' | 'otherBoot' } {
  if (state.boot !== undefined && state.boot === boot) return { state: prior };
  const { digest, key, attempt, keySent } = state;
  const widened = state.boot === undefined || boot === undefined ? 'noBoot' : 'otherBoot';
  return { state: { outcome: 'unknown', digest, key, attempt, keySent }, widened };
}

/** The batch's header as its first run wrote it (see RunHeader). */
export interface JournalHeader extends Omit<RunHeader, 'at' | 'boot'> {
  /** When its first run started (ISO 8601). */
  started: string;
  /** The layout it is written in (journal-db.ts FORMAT). */
  format: number;
}
