import { shortText } from '../core/short-text.js';
import { ApiError, NetworkError } from '../core/errors.js';
import type { Pet } from '../core/interface.js';
import type { ErrorSummary } from './journal-entries.js';

/** How many created ids a run that lost its stdout lists on stderr (the journal has all). */
const MAX_LISTED_IDS = 1000;
/** How many record positions a summary names; the rest are counted (the journal has all). */
const NAMED_POSITIONS = 10;
/** How many records earlier runs left failed or unknown a run lists by name (the journal has all). */
export const LISTED_EARLIER = 1000;

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

/** How many records earlier runs of the journal left each way, that this run does not send. */
export interface EarlierCounts {
  created: number;
  failed: number;
  unknown: number;
}

/** A record earlier runs left failed or unknown, as the run passed it in the input. */
export interface EarlierRecord {
  index: number;
  name: string;
  /** Why it failed; undefined for one of unknown outcome. */
  error: ErrorSummary | undefined;
}

function errorFromSummary(summary: ErrorSummary): Error {
  return summary.status > 0
    ? new ApiError(summary.status, summary.code, summary.message)
    : new NetworkError(summary.code, summary.message);
}

/** 1-based record positions, in order: the first few, then how many more of `count`. */
export function positions(indexes: readonly number[], count = indexes.length): string {
  const sorted = [...indexes].sort((a, b) => a - b).map((index) => index + 1);
  const named = sorted.slice(0, NAMED_POSITIONS);
  const more = count - named.length;
  return more > 0 ? `${named.join(', ')} and ${more} more` : named.join(', ');
}

/**
 * What each record of a run became: created now or answered from an earlier request, failed,
 * unknown, or not attempted; the summary a person reads and a script parses; the first record's
 * problem, which a front end maps to its exit code. Counts, the first few of each kind and the
 * first problem are kept, never a list of every record: a run of millions keeps a few numbers.
 */
export class Ledger {
  private createdNow = 0;
  private replayed = 0;
  private failedNow = 0;
  private unknownNow = 0;
  /** Records of the send list whose request this run made. */
  started = 0;
  private readonly listedIds: string[] = [];
  private idCount = 0;
  /** The lowest positions of unknown outcome seen, at most NAMED_POSITIONS of them. */
  private readonly unknownFirst: number[] = [];
  /** The record first in input order that did not end created, with its error (if this run's). */
  private first: { index: number; error: unknown } | undefined;
  /** Records earlier runs left failed or unknown, as the run passed them (the first ones). */
  readonly earlierListed: EarlierRecord[] = [];

  constructor(
    readonly total: number,
    readonly sendCount: number,
    private readonly earlier: EarlierCounts = { created: 0, failed: 0, unknown: 0 },
  ) {}

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

  private problem(index: number, error: unknown): void {
    if (this.first === undefined || index < this.first.index) this.first = { index, error };
  }

  private noteUnknown(index: number): void {
    if (this.unknownFirst.length === NAMED_POSITIONS && index > this.unknownFirst.at(-1)!) return;
    this.unknownFirst.push(index);
    this.unknownFirst.sort((a, b) => a - b);
    this.unknownFirst.length = Math.min(this.unknownFirst.length, NAMED_POSITIONS);
  }

  failed(index: number, error: unknown): void {
    this.failedNow++;
    this.problem(index, error);
  }

  /** A record of this run whose outcome is unknown (`error`, why; none when abandoned). */
  outcomeUnknown(index: number, error?: unknown): void {
    this.unknownNow++;
    this.noteUnknown(index);
    this.problem(index, error);
  }

  /** A record an earlier run left failed (`error`) or unknown, passed now and not sent. */
  earlierOutcome(record: EarlierRecord): void {
    // Kept short: a list of names can hold a thousand records of a megabyte each.
    if (this.earlierListed.length < LISTED_EARLIER) {
      this.earlierListed.push({ ...record, name: shortText(record.name, 200) });
    }
    if (record.error === undefined) this.noteUnknown(record.index);
    this.problem(record.index, record.error && errorFromSummary(record.error));
  }

  get unknownCount(): number {
    return this.earlier.unknown + this.unknownNow;
  }

  get allCreated(): boolean {
    return this.earlier.failed + this.failedNow === 0 && this.unknownCount === 0;
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
      createdEarlier: this.earlier.created,
      failed: this.earlier.failed + this.failedNow,
      unknown: this.unknownCount,
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
    const unknownAt = this.unknownFirst.length
      ? ` (record ${positions(this.unknownFirst, counts.unknown)})`
      : '';
    const rest = [
      counts.failed ? `${counts.failed} failed` : '',
      counts.unknown ? `${counts.unknown} unknown${unknownAt}` : '',
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
    return this.first?.error;
  }
}
