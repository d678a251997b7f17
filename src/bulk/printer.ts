import type { Pet } from '../core/types.js';
import { encodeEntry } from './journal-entries.js';
import type { JournalSink } from './journal-writer.js';

/** Where a bulk run's created pets go, one line each (JSON, CSV or TSV). */
export interface RowOutput {
  /** What precedes the first row (a CSV header), or ''. */
  readonly header: string;
  /** The row of one pet, ending with its line break. */
  line(pet: Pet): string;
  /** Writes the text; returns how many of its bytes reached stdout (all, unless it failed). */
  write(text: string): number;
}

/**
 * Writes each created pet to stdout once, and journals it `printed` only once its whole line
 * reached stdout. The pets created in one turn of the event loop go out in one write, after
 * their `created` entries reach the journal's file: a printed pet is always journaled as
 * created, and a run killed between the two prints it again on resume, never loses it. A line
 * a failing stdout took only part of (a disk full mid-line) is not printed: the resume prints it.
 */
export class Printer {
  private queue: { pet: Pet; record: number }[] = [];
  private headerWritten = false;
  private scheduled = false;
  private stopped = false;

  constructor(
    private readonly output: RowOutput,
    private readonly journal: JournalSink,
    private readonly events: {
      /** stdout took less than it was given: nothing more is printed. */
      onClosed: () => void;
      /** A flush at the end of a turn failed (the journal could not be written). */
      onError: (error: unknown) => void;
    },
  ) {}

  /** Whether stdout can take no more. */
  get closed(): boolean {
    return this.stopped;
  }

  /** Queues the pet of this 1-based record; it is written at the end of this turn. */
  print(pet: Pet, record: number): void {
    if (this.queue.push({ pet, record }) > 1 || this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      try {
        this.flush();
      } catch (error) {
        this.events.onError(error);
      }
    });
  }

  /** Writes every queued pet now. */
  flush(): void {
    const batch = this.queue;
    this.queue = [];
    if (batch.length === 0 || this.stopped) return;
    this.journal.flush();
    const header = this.headerWritten ? '' : this.output.header;
    const lines = batch.map(({ pet }) => this.output.line(pet));
    // Made ready before the write, so what follows it is little more than one system call.
    const printed = batch.map(({ record }) => encodeEntry({ type: 'printed', record }));
    const text = header + lines.join('');
    const written = this.output.write(text);
    let end = Buffer.byteLength(header);
    if (written >= end) this.headerWritten = true;
    for (const [at, line] of lines.entries()) {
      end += Buffer.byteLength(line);
      if (end > written) break;
      this.journal.append(printed[at]!);
    }
    // Short of the end of the last line it reached: stdout took less than it was given.
    if (written < end) {
      this.stopped = true;
      this.events.onClosed();
    }
    this.journal.flush();
  }
}
