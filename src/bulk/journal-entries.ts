import type { Pet } from '../core/interface.js';

/**
 * What a bulk run tells its journal (journal-store.ts) as it goes: per record `queued` (on
 * disk, a few records ahead, before any of them goes out), `sending` (just before its request
 * goes out), its outcome, and `printed` once its line left the process.
 */

export type ErrorSummary = {
  code: string;
  message: string;
  status: number;
  /** The record's name as sent (cut to 200): which pet to fix, where no pet was made. */
  name?: string | undefined;
};

/** What a journal keeps of its batch, and of each run's start. */
export interface RunHeader {
  /** The input's absolute path, or "-" for stdin. */
  input: string;
  records: number;
  /** How the run named its target, and what it sent to (the base URL, or "sandbox"). */
  target: string;
  service?: string | undefined;
  at: string;
  /** The batch every key of the run is made from. */
  batch: string;
  /** The digest of the whole input; each record's (8 bytes each, base64) in format 1 only. */
  digest?: string | undefined;
  digests?: string | undefined;
  /** The machine's boot the run wrote in (see bootId): what a kill leaves is whole within it. */
  boot?: string | undefined;
  /** The batch was given (--batch-id, PETSTORE_BATCH_ID), not made for this journal. */
  namedBatch?: boolean | undefined;
  /** The format the input was read in (json, ndjson, csv, tsv), so a resume reads it alike. */
  inputFormat?: string | undefined;
  /** Invalid records were set aside (--skip-invalid), so a resume sets them aside too. */
  skipInvalid?: boolean | undefined;
  /** How many records this run set aside as invalid. */
  rejected?: number | undefined;
  /** The part of the input its records are (--shard I/N): every Nth record from the Ith. */
  shard?: string | undefined;
  /** Who asked for the batch when it was not the command line: an agent's client, by name. */
  client?: string | undefined;
  /**
   * The input's name its records' keys are made from: the first run's, for a run of a named
   * batch that found the same input imported under another name (absent: the input's own).
   */
  keyInput?: string | undefined;
  /** Its input's records in any order (InputDigest.content); absent in older journals. */
  content?: string | undefined;
  /** The trace (W3C trace context) the run's requests carried. */
  trace?: string | undefined;
}

export type RecordEntry =
  /** About to be sent, with its key: on disk before it (or any after it) is sent. */
  | { type: 'queued'; record: number; digest: string; key: string }
  /** Sent now. */
  | { type: 'sending'; record: number }
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

export type JournalEntry = RecordEntry | ClockEntry;

/** What a bulk run needs of its journal. */
export interface JournalSink {
  readonly path: string;
  /** Takes the entry (written out by the end of this turn); returns its sequence number. */
  append(entry: JournalEntry): number;
  /** Writes every entry taken so far now. */
  flush(): void;
  /** Resolves once the entry with this sequence number is written (kept by a kill). */
  committedThrough(sequence: number): Promise<void>;
  /** Resolves once the entry with this sequence number, and all before it, are on disk. */
  syncedThrough(sequence: number): Promise<void>;
}
