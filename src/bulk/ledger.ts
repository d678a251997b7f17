import { ApiError, NetworkError } from '../core/errors.js';
import type { Pet } from '../core/interface.js';
import type { ErrorSummary } from './journal-entries.js';
import type { EarlierOutcomes } from './plan.js';

/** How many created ids a run that lost its stdout lists on stderr (the journal has all). */
const MAX_LISTED_IDS = 1000;

/** What became of the records of a run, in the JSON form of its summary. */
export interface BulkCounts {
  records: number;
  /** Created by this run's requests. */
  createdNow: number;
  /** Answered by the service from an earlier request with the same key: not created again. */
  replayed: number;
  /** Created by the earlier runs of this journal. */
  createdEarlier: number;
  failed: number;
  unknown: number;
  notAttempted: number;
}

function errorFromSummary(summary: ErrorSummary): Error {
  return summary.status > 0
    ? new ApiError(summary.status, summary.code, summary.message)
    : new NetworkError(summary.code, summary.message);
}

/** How many record positions a summary names; the rest are counted (the journal has all). */
const NAMED_POSITIONS = 10;

/** 1-based record positions, in order: the first few, then how many more. */
export function positions(indexes: readonly number[]): string {
  const sorted = [...indexes].sort((a, b) => a - b).map((index) => index + 1);
  if (sorted.length <= NAMED_POSITIONS) return sorted.join(', ');
  return `${sorted.slice(0, NAMED_POSITIONS).join(', ')} and ${sorted.length - NAMED_POSITIONS} more`;
}

/**
 * What each record of a run became: created now or answered from an earlier request, failed,
 * unknown, or not attempted; the summary a person reads and a script parses; the first record's
 * problem, which a front end maps to its exit code.
 */
export class Ledger {
  readonly failures: { index: number; error: unknown }[];
  readonly unknown: number[];
  /** Why this run's unknown records are unknown (none for earlier runs' or abandoned ones). */
  private readonly unknownErrors = new Map<number, unknown>();
  private createdNow = 0;
  private replayed = 0;
  /** Records of the send list whose request this run made. */
  started = 0;
  private readonly listedIds: string[] = [];
  private idCount = 0;

  constructor(
    readonly total: number,
    readonly sendCount: number,
    private readonly earlier: EarlierOutcomes,
  ) {
    this.failures = earlier.failed.map(({ index, error }) => ({
      index,
      error: errorFromSummary(error),
    }));
    this.unknown = [...earlier.unknown];
  }

  /** A pet this run created, or the service answered from an earlier request (`replayed`). */
  created(pet: Pet, replayed: boolean): void {
    if (replayed) this.replayed++;
    else this.createdNow++;
    this.listId(pet);
  }

  /** A pet an earlier run created: listed with the ids when stdout closes, not counted again. */
  listId(pet: Pet): void {
    if (this.idCount++ < MAX_LISTED_IDS) this.listedIds.push(pet.id.toString());
  }

  failed(index: number, error: unknown): void {
    this.failures.push({ index, error });
  }

  outcomeUnknown(index: number, error?: unknown): void {
    if (!this.unknown.includes(index)) this.unknown.push(index);
    if (error === undefined) this.unknownErrors.delete(index);
    else this.unknownErrors.set(index, error);
  }

  get allCreated(): boolean {
    return this.failures.length === 0 && this.unknown.length === 0;
  }

  /** The ids of the pets created or printed so far: the first ones, and how many more. */
  ids(): { listed: readonly string[]; more: number } {
    return { listed: this.listedIds, more: this.idCount - this.listedIds.length };
  }

  counts(): BulkCounts {
    return {
      records: this.total,
      createdNow: this.createdNow,
      replayed: this.replayed,
      createdEarlier: this.earlier.created.length,
      failed: this.failures.length,
      unknown: this.unknown.length,
      notAttempted: this.sendCount - this.started,
    };
  }

  /** E.g. "4 records to staging: created 2 now, 1 answered from an earlier request; 1 failed". */
  summary(target: string): string {
    const counts = this.counts();
    const done = [
      `created ${counts.createdNow} now`,
      counts.replayed
        ? `${counts.replayed} answered from an earlier request (not created again)`
        : '',
      counts.createdEarlier ? `${counts.createdEarlier} by earlier runs` : '',
    ].filter(Boolean);
    const rest = [
      counts.failed ? `${counts.failed} failed` : '',
      counts.unknown ? `${counts.unknown} unknown (record ${positions(this.unknown)})` : '',
      counts.notAttempted ? `${counts.notAttempted} not attempted` : '',
    ].filter(Boolean);
    const records = counts.records === 1 ? '1 record' : `${counts.records} records`;
    return `${records} to ${target}: ${done.join(', ')}${rest.length ? `; ${rest.join(', ')}` : ''}`;
  }

  /**
   * The error of the first record, in input order, that did not end created; undefined when
   * that record's outcome is unknown with no error of this run's (an earlier run's, or one in
   * flight when the run was abandoned).
   */
  firstProblem(): unknown {
    const firstFailure = this.failures.reduce<{ index: number; error: unknown }>(
      (a, b) => (a.index < b.index ? a : b),
      { index: Infinity, error: undefined },
    );
    const firstUnknown = Math.min(...this.unknown);
    return firstFailure.index < firstUnknown
      ? firstFailure.error
      : this.unknownErrors.get(firstUnknown);
  }
}
