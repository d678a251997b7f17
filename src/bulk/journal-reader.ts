import type { DatabaseSync } from 'node:sqlite';
import { UsageError } from '../core/errors.js';
import { inputRows, PAGE, READABLE_FORMATS, recordRow, type Row } from './journal-db.js';
import { notThisFormat } from './journal-file.js';
import {
  settledQueued,
  type JournalHeader,
  type KeySent,
  type Queued,
  type RecordState,
  type UnknownSinceQueued,
} from './record-states.js';

/**
 * What a journal holds, read as a reader on this machine sees it now: its header, how many
 * records ended each way, and its records a page of rows at a time (a journal of millions is
 * never held at once). The store (journal-store.ts) writes; this reads.
 */

/** What is wrong with a journal petstore would never have written, said as such. */
export function damaged(path: string, error: unknown): UsageError {
  if (error instanceof UsageError) return error;
  return new UsageError(`the journal ${path} is damaged: ${(error as Error).message}`, {
    hint: 'Only petstore writes a journal; restore it from where it came.',
  });
}

/** What the journal says of its records as a reader on this machine sees them now. */
export interface JournalCounts {
  created: number;
  failed: number;
  unknown: number;
  /** Never sent (or only queued, and never sent, in this boot). */
  unsent: number;
  /** Created and not yet printed by any run. */
  unprinted: number;
  /** Records queued and never journaled as sent, counted unknown all the same, and why. */
  unknownSinceQueued: UnknownSinceQueued;
}

export class JournalReader {
  /** Each run's start (ms since the epoch) and how far ahead the service's clock was. */
  protected readonly runs = new Map<number, { at: number; ahead: number | undefined }>();
  /** How many records the input holds. */
  protected records = 0;
  /** The number of the last run journaled. */
  protected lastRun = -1;

  protected constructor(
    readonly path: string,
    protected readonly db: DatabaseSync,
  ) {}

  /** Entries taken and not yet written, written before anything is read (the store's). */
  protected flush(): void {}

  private headerRow(): Row {
    let row: Row | undefined;
    try {
      row = this.db.prepare('SELECT * FROM journal').get();
    } catch {
      row = undefined;
    }
    if (row === undefined || !READABLE_FORMATS.includes(row.format)) throw notThisFormat(this.path);
    return row;
  }

  protected load(): void {
    this.records = Number(this.headerRow().records);
    const runs = this.db.prepare('SELECT * FROM runs ORDER BY run').all() as Row[];
    for (const row of runs) {
      const ahead = row.service_ahead_ms;
      this.runs.set(Number(row.run), {
        at: Date.parse(row.at as string),
        ahead: typeof ahead === 'number' ? ahead : undefined,
      });
    }
    this.lastRun = runs.length - 1;
  }

  /** When a key of the run of this number was first sent: the run's start. */
  protected readonly sentIn = (run: number): KeySent => ({
    at: this.runs.get(run)?.at ?? 0,
    byService: undefined,
    run,
  });

  /** The batch, as its first run wrote it. */
  header(): JournalHeader {
    this.flush();
    const header = this.headerRow();
    const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
    const last = this.db.prepare('SELECT * FROM runs ORDER BY run DESC LIMIT 1').get();
    return {
      format: Number(header.format),
      started: header.started as string,
      input: header.input as string,
      records: Number(header.records),
      target: header.target as string,
      service: text(header.service),
      batch: header.batch as string,
      digest: text(header.digest),
      digests: text(header.digests),
      namedBatch: header.named_batch === 1,
      inputFormat: text(header.input_format),
      skipInvalid: header.skip_invalid === 1,
      // The last run's count: each run reads the input again, perhaps fixed.
      rejected: Number(last?.rejected ?? 0),
      shard: text(header.shard),
      client: text(header.client),
      keyInput: text(header.key_input),
      content: text(header.content),
    };
  }

  /** A row's state with when its key was first sent by the service's clock, where known. */
  private withServiceTime<State extends RecordState | Queued>(state: State): State {
    const ahead = this.runs.get(state.keySent.run)?.ahead;
    const { at } = state.keySent;
    return {
      ...state,
      keySent: { ...state.keySent, byService: ahead === undefined ? undefined : at + ahead },
    };
  }

  /** A row's state, and its state before the attempt under way; damage said as such. */
  protected rowOf(row: Row) {
    try {
      return recordRow(row, this.records, this.sentIn);
    } catch (error) {
      throw damaged(this.path, error);
    }
  }

  /** A row as a reader on this machine sees it now (`boot`): queued rows settled. */
  private settled(row: Row, boot: string | undefined) {
    const { record, state, prior } = this.rowOf(row);
    if (state.outcome !== 'queued') return { record, state: this.withServiceTime(state) };
    const queued = settledQueued(state, prior, boot);
    const settledState = queued.state && this.withServiceTime(queued.state);
    return { record, state: settledState, widened: queued.widened };
  }

  /**
   * Every record any run sent, as a reader on this machine sees it now (`boot`), in order from
   * the one after `after`; a page of rows at a time, so a run may write between two pages.
   */
  *states(
    boot: string | undefined,
    after = Number.MIN_SAFE_INTEGER,
  ): Generator<[number, RecordState]> {
    this.flush();
    const page = this.db.prepare('SELECT * FROM records WHERE record > ? ORDER BY record LIMIT ?');
    for (let from = after; ;) {
      const rows = this.rows(() => page.all(from, PAGE) as Row[]);
      for (const row of rows) {
        const { record, state } = this.settled(row, boot);
        if (state !== undefined) yield [record, state];
      }
      if (rows.length < PAGE) return;
      from = Number(rows.at(-1)!.record);
    }
  }

  /**
   * Rows as SQLite gives them; a number no JavaScript number holds (past 2^53, which petstore
   * never writes: node:sqlite refuses to read it) said as the damage it is.
   */
  protected rows<T>(read: () => T): T {
    try {
      return read();
    } catch (error) {
      if (error instanceof RangeError)
        throw damaged(this.path, new Error(`a row holds ${error.message.toLowerCase()}`));
      throw error;
    }
  }

  /** Reads every record's row, a page at a time: one petstore would never write is damage. */
  checkRows(): void {
    const rows = this.states(undefined);
    for (let row = rows.next(); row.done !== true; row = rows.next()) continue;
  }

  /** How many records ended each way, as a reader on this machine sees them now (`boot`). */
  counts(boot: string | undefined): JournalCounts {
    this.flush();
    const counts: JournalCounts = {
      created: 0,
      failed: 0,
      unknown: 0,
      unsent: 0,
      unprinted: 0,
      unknownSinceQueued: { noBoot: [], otherBoot: [] },
    };
    const grouped = this.db
      .prepare(
        "SELECT outcome, count(*) AS n, sum(printed = 0) AS unprinted FROM records WHERE outcome != 'queued' GROUP BY outcome",
      )
      .all() as {
      outcome: 'created' | 'failed' | 'unknown';
      n: number;
      unprinted: number | null;
    }[];
    for (const { outcome, n, unprinted } of grouped) {
      counts[outcome] += n;
      if (outcome === 'created') counts.unprinted = unprinted ?? 0;
    }
    // Only records a run queued and never sent: a few per run, read and settled one by one.
    const queued = this.db.prepare(
      "SELECT * FROM records WHERE outcome = 'queued' ORDER BY record",
    );
    for (const row of this.rows(() => queued.all() as Row[])) {
      const { record, state, widened } = this.settled(row, boot);
      if (widened !== undefined) counts.unknownSinceQueued[widened].push(record);
      if (state === undefined) continue;
      counts[state.outcome]++;
      if (state.outcome === 'created' && !state.printed) counts.unprinted++;
    }
    counts.unsent = this.records - counts.created - counts.failed - counts.unknown;
    return counts;
  }

  /** The input's records (format 2; none in format 1): see inputRows. */
  *inputs(after = 0): Generator<{ record: number; position: number; digest: string }> {
    if (this.header().format >= 2) yield* inputRows(this.db, after);
  }

  /**
   * Created pets in record order after `after`, at most `limit`: those not yet printed, or
   * every one (`all`).
   */
  createdPage(after: number, limit: number, all: boolean): { record: number; pet: string }[] {
    this.flush();
    const printed = all ? '' : 'AND printed = 0';
    return this.db
      .prepare(
        `SELECT record, pet FROM records WHERE outcome = 'created' ${printed} AND record > ? ORDER BY record LIMIT ?`,
      )
      .all(after, limit) as { record: number; pet: string }[];
  }
}
