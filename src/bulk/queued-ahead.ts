import type { JournalSink } from './journal-entries.js';
import type { BulkRecord } from './plan.js';
import { asError } from './run-errors.js';

/** A record journaled as queued, and the sequence number of that entry. */
export interface Queued {
  record: BulkRecord;
  sequence: number;
}

/**
 * The records about to go out, read from the plan and journaled as `queued` ahead of their
 * requests, so a record rarely waits for a disk sync of its own: one sync covers many. Whether
 * each was then sent is its `sending` line (runner.ts). Those a stop leaves unsent are
 * withdrawn at the end. At most `size` are held.
 */
export class QueuedAhead {
  private readonly queued: Queued[] = [];
  private readonly records: AsyncIterator<BulkRecord>;
  private filling: Promise<void> | undefined;
  private exhausted = false;
  /** Why the records could not be read (the input changed): said once those queued went. */
  private readFailure: unknown;

  constructor(
    records: AsyncIterable<BulkRecord>,
    private readonly journal: JournalSink,
    private readonly options: { size: number; stopping: () => boolean },
  ) {
    this.records = records[Symbol.asyncIterator]();
  }

  /** The next record to send, journaled as queued (with those after it), or none. */
  async take(): Promise<Queued | undefined> {
    while (this.queued.length === 0 && !this.exhausted) await this.fill();
    const next = this.queued.shift();
    if (next === undefined && this.readFailure !== undefined) throw asError(this.readFailure);
    if (this.queued.length < this.options.size / 2 && !this.exhausted) void this.fill();
    return next;
  }

  /** A record taken and then not sent (the run stopped): withdrawn with the rest. */
  putBack(taken: Queued): void {
    this.queued.unshift(taken);
  }

  private fill(): Promise<void> {
    this.filling ??= (async () => {
      while (
        this.queued.length < this.options.size &&
        !this.exhausted &&
        !this.options.stopping()
      ) {
        const next = await this.records.next();
        if (next.done === true) {
          this.exhausted = true;
          break;
        }
        const { index, digest, key } = next.value;
        const sequence = this.journal.append({ type: 'queued', record: index + 1, digest, key });
        this.queued.push({ record: next.value, sequence });
      }
      // On disk before they are taken: the sync runs while the requests before them do.
      const last = this.queued.at(-1);
      if (last !== undefined) this.journal.syncedThrough(last.sequence).catch(() => undefined);
    })()
      .catch((error: unknown) => {
        this.readFailure ??= error;
        this.exhausted = true;
      })
      .finally(() => (this.filling = undefined));
    return this.filling;
  }

  /** Journals the records queued but never sent as withdrawn: no resume need wonder. */
  async withdrawUnsent(): Promise<void> {
    // A record being read is queued before the others are withdrawn.
    await this.filling;
    try {
      for (const { record } of this.queued.splice(0)) {
        this.journal.append({ type: 'withdrawn', record: record.index + 1 });
      }
      this.journal.flush();
    } catch {
      // A journal that cannot be written leaves them queued: a resume in this boot knows they
      // were not sent (no `sending` line), one after a reboot takes them for unknown.
    }
  }
}
