import type { InputFormat } from '../core/contract.js';
import { UsageError } from '../core/errors.js';
import { Cursor } from '../core/cursor.js';
import { option, phrase } from '../core/phrase.js';
import type { JournalStore } from './journal-store.js';
import { badRecords, noPets, Problems } from './record-problems.js';
import type { JournalHeader, RecordState } from './record-states.js';
import { InputDigest, type InputRecords, type ReadRecord } from './records.js';

/**
 * The first pass over an import's input: every record read and checked, the valid ones
 * numbered and digested, the invalid ones named (and, when asked, set aside), before anything
 * is sent. Only counts, the first few problems and a running digest are kept.
 */

/** The part of an input one machine sends (--shard I/N): every Nth record from the Ith. */
export interface Shard {
  index: number;
  count: number;
}

/** Whether the record at this 1-based position of the input (every record counted) is the shard's. */
export function inShard(shard: Shard | undefined, position: number): boolean {
  return shard === undefined || (position - 1) % shard.count === shard.index - 1;
}

export const shardText = (shard: Shard) => `${shard.index}/${shard.count}`;

/** What the first pass found. */
export interface InputCheck {
  format: InputFormat | undefined;
  /** The valid records (of the shard): what the run's records are numbered by. */
  records: number;
  /** Records set aside as invalid. */
  rejected: number;
  /** Records that carried an id (ignored) and that gave their status in another letter case. */
  ignoredIds: number;
  statusCaseChanged: number;
  /** The digest of every valid record, in order. */
  digest: string;
  /** The valid records' content in any order (InputDigest.content). */
  content: string;
  /** What was wrong with the invalid records: the first few, and how many. */
  problems: Problems;
}

/** Where the first pass hands each record it reads. */
export interface CheckSinks {
  /** A valid record: its number (1-based, valid records counted), position and digest. */
  record?(record: number, position: number, digest: string): void;
  /** An invalid record, when they are set aside. */
  rejected?(record: ReadRecord): Promise<void>;
}

/**
 * Reads the whole input once. By default one invalid record refuses the input (every one
 * named, up to a cap), nothing sent; with `skipInvalid` they are handed to `sinks.rejected`.
 */
export async function checkInput(
  input: InputRecords,
  source: string,
  options: { skipInvalid: boolean; shard?: Shard | undefined },
  sinks: CheckSinks,
): Promise<InputCheck> {
  const problems = new Problems();
  const digest = new InputDigest();
  const found = { records: 0, rejected: 0, ignoredIds: 0, statusCaseChanged: 0 };
  for await (const read of input.records) {
    if (!inShard(options.shard, read.position)) continue;
    if (read.pet === undefined) {
      found.rejected++;
      for (const reason of read.reasons) {
        problems.add(`${read.where}${reason.startsWith('column') ? ', ' : ': '}${reason}`);
      }
      if (options.skipInvalid) await sinks.rejected?.(read);
      continue;
    }
    found.records++;
    if (read.hadId) found.ignoredIds++;
    if (read.statusChanged) found.statusCaseChanged++;
    sinks.record?.(found.records, read.position, digest.add(read.pet));
  }
  if (found.records === 0 && found.rejected === 0) throw noPets(source);
  if (found.rejected > 0 && !options.skipInvalid)
    throw badRecords(source, problems, found.rejected);
  const { format } = input;
  return { format, ...found, digest: digest.digest(), content: digest.content(), problems };
}

function changed(why: string, batch: string): UsageError {
  return new UsageError(`the input changed since the journaled run: ${why}; nothing was sent`, {
    // A new run of another batch would send every record again, the created ones too.
    hint: phrase`Resume with the input the run read (FILE). Records fixed where they were (none added, removed or moved) are sent by running the file again as the same batch, ${option('batchId', batch)}, without ${option('resume')}: each key stands for one place in the input.`,
  });
}

/**
 * Whether an input read again is, record for record, the one a journal was written for: each
 * record's digest is compared as it is read with what the journal keeps (a row per record in
 * format 2; in format 1, 8 bytes a record in its header, and the digests of the records sent).
 */
export class SameInput {
  private readonly inputs: Iterator<{ record: number; digest: string }, unknown>;
  private readonly states: Cursor<[number, RecordState]>;
  private readonly compact: Buffer | undefined;
  /** The first record (1-based) that differs, if one does. */
  first: number | undefined;

  constructor(
    journal: JournalStore,
    private readonly header: JournalHeader,
    boot: string | undefined,
  ) {
    this.inputs = journal.inputs();
    this.compact = header.digests === undefined ? undefined : Buffer.from(header.digests, 'base64');
    // Format 2 keeps every record's digest; an older journal, perhaps only the sent ones'.
    this.states = new Cursor(header.format >= 2 ? [] : journal.states(boot));
  }

  /** The record read now; false once one differs from the journal's. */
  record(record: number, digest: string): boolean {
    if (this.first !== undefined) return false;
    if (!this.matches(record, digest)) this.first = record;
    return this.first === undefined;
  }

  private matches(record: number, digest: string): boolean {
    if (this.header.format >= 2) {
      const known = this.inputs.next();
      return (
        known.done !== true &&
        known.value.record === record &&
        digest.startsWith(known.value.digest)
      );
    }
    if (this.compact !== undefined) {
      const known = this.compact.subarray((record - 1) * 8, record * 8).toString('hex');
      if (known !== digest.slice(0, 16)) return false;
    }
    const sent = this.states.skipWhile(([at]) => at < record);
    return sent?.[0] !== record || digest.startsWith(sent[1].digest);
  }

  /** Refuses the input, sending nothing, unless every record was the journal's. */
  end(records: number, digest: string): void {
    const { header } = this;
    if (header.records !== records) {
      throw changed(
        `it holds ${records} record${records === 1 ? '' : 's'}, the run read ${header.records}`,
        header.batch,
      );
    }
    if (this.first !== undefined) throw changed(`record ${this.first} differs`, header.batch);
    if (header.digest !== undefined && header.digest !== digest) {
      throw changed('its records differ', header.batch);
    }
  }
}
