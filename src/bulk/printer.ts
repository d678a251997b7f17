import type { Pet } from '../core/interface.js';
import type { JournalSink } from './journal-entries.js';

/** Where a bulk run's created pets go, one line each (JSON, CSV or TSV). */
export interface RowOutput {
  /** What precedes the first row (a CSV header), or ''. */
  readonly header: string;
  /** The row of one pet, ending with its line break. */
  line(pet: Pet): string;
  /**
   * Writes the text; resolves once it has left this process (the system has it, as a pipe's
   * reader or a file would see it), with how many of its bytes did (all, unless stdout failed).
   */
  write(text: string): Promise<number>;
}

/**
 * The most a write to stdout holds: on a pipe, a write of at most PIPE_BUF bytes (4 KiB on
 * Linux, 512 by POSIX) goes whole or not at all, so a kill leaves no line torn, and at most
 * one such write of lines printed but not yet journaled (printed again on resume).
 */
const ATOMIC_WRITE_BYTES = 4096;

/**
 * Writes each created pet to stdout once, and journals it `printed` only once its whole line
 * has left this process: a line still queued in the process (a pipe whose reader is slow) dies
 * with it, so it must not count as printed. The pets created in one turn of the event loop go
 * out together, after their `created` entries reach the journal's file: a printed pet is
 * always journaled as created, and a run killed between a write and its `printed` entries
 * prints that write's pets again on resume, never loses one. Writes hold at most 4 KiB of
 * whole lines (see ATOMIC_WRITE_BYTES), however many pets are ready: a resume's catch-up of
 * thousands of earlier pets into a slow pipe goes out, and is journaled, a write at a time.
 * A line a failing stdout took only part of (a disk full mid-line) is not printed either: the
 * resume prints it.
 */
export class Printer {
  private queue: { pet: Pet; record: number }[] = [];
  private headerWritten = false;
  private scheduled = false;
  private stopped = false;
  /** The batches being written, one after another. */
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly output: RowOutput,
    private readonly journal: JournalSink,
    private readonly events: {
      /** stdout took less than it was given: nothing more is printed. */
      onClosed: () => void;
      /** A batch could not be journaled (the journal could not be written). */
      onError: (error: unknown) => void;
    },
  ) {}

  /** Whether stdout can take no more. */
  get closed(): boolean {
    return this.stopped;
  }

  /** Queues the pet of this 1-based record; it is written at the end of this turn. */
  print(pet: Pet, record: number): void {
    this.queue.push({ pet, record });
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.next();
    });
  }

  /** Writes every queued pet; resolves once each is journaled printed or known not to be. */
  drain(): Promise<void> {
    return this.next();
  }

  private next(): Promise<void> {
    this.writing = this.writing
      .then(() => this.writeBatch())
      .catch((error: unknown) => this.events.onError(error));
    return this.writing;
  }

  private async writeBatch(): Promise<void> {
    const batch = this.queue;
    this.queue = [];
    if (batch.length === 0 || this.stopped) return;
    this.journal.flush();
    let chunk: { lines: string[]; records: number[]; bytes: number } = fresh();
    for (const { pet, record } of batch) {
      const line = this.output.line(pet);
      const bytes = Buffer.byteLength(line);
      if (chunk.lines.length > 0 && chunk.bytes + bytes > ATOMIC_WRITE_BYTES) {
        if (!(await this.writeChunk(chunk))) return;
        chunk = fresh();
      }
      chunk.lines.push(line);
      chunk.records.push(record);
      chunk.bytes += bytes;
    }
    await this.writeChunk(chunk);
  }

  /** Writes one chunk of lines and journals those that left whole; false once stdout stops. */
  private async writeChunk(chunk: { lines: string[]; records: number[] }): Promise<boolean> {
    const header = this.headerWritten ? '' : this.output.header;
    const reached = await this.output.write(header + chunk.lines.join(''));
    let end = Buffer.byteLength(header);
    if (reached >= end) this.headerWritten = true;
    for (const [at, line] of chunk.lines.entries()) {
      end += Buffer.byteLength(line);
      if (end > reached) break;
      this.journal.append({ type: 'printed', record: chunk.records[at]! });
    }
    this.journal.flush();
    // Short of the end of the last line it reached: stdout took less than it was given.
    if (reached < end) {
      this.stopped = true;
      this.events.onClosed();
      return false;
    }
    return true;
  }
}

function fresh(): { lines: string[]; records: number[]; bytes: number } {
  return { lines: [], records: [], bytes: 0 };
}
