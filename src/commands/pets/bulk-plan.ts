import type { NewPet, Pet } from '../../core/types.js';
import type { ErrorSummary } from './journal.js';

/** What a bulk run is given to send, shared by its planner and its sender. */

/** One record to send: its 0-based position in the input, and the key it is sent with. */
export interface BulkRecord {
  index: number;
  pet: NewPet;
  /** recordDigest(pet), which the journal keeps. */
  digest: string;
  key: string;
}

/** What a resumed run found in its journal and does not send again. */
export interface EarlierOutcomes {
  /** `printed`: an earlier run wrote the pet to its stdout. */
  created: { index: number; pet: Pet; printed: boolean }[];
  failed: { index: number; error: ErrorSummary }[];
  unknown: number[];
}

/** The records a run sends, in input order, each made (record and key) when it is needed. */
export interface SendList {
  readonly length: number;
  /** The input index (0-based) of the record at this position of the list. */
  indexAt(position: number): number;
  /**
   * The record at this position, with its key: the journaled one for a record whose outcome
   * is unknown, a new one for a rejected record sent again, else the one its input and content
   * give it.
   */
  record(position: number): BulkRecord;
}
