import type { Hint } from '../core/phrase.js';
import { ApiError, InterruptedError, neverReachedService, PetstoreError } from '../core/errors.js';
import type { StopSignal } from '../core/io.js';
import { shortText } from '../core/short-text.js';
import { StopController, type SignalSource } from '../core/stop.js';
import type { NewPet, Pet } from '../core/interface.js';
import type { JournalSink } from './journal-entries.js';
import { Ledger } from './ledger.js';
import type { BulkRecord } from './plan.js';
import { Printer, type RowOutput } from './printer.js';
import { QueuedAhead } from './queued-ahead.js';
import { asError, concernsWholeRun, summarize, unknownHint } from './run-errors.js';

/** Creates one pet: the API client's createPet, or a test's stand-in. */
export type CreatePet = (
  pet: NewPet,
  options: {
    idempotencyKey: string;
    resendWhenUnknown: boolean;
    onReplayed: (info: { afterUnansweredSend: boolean }) => void;
    /** The record's 1-based number, as the journal names it. */
    record: number;
  },
) => Promise<Pet>;

/** What the runner touches of the world: each is small, so every rule is a unit test. */
export interface BulkPorts {
  createPet: CreatePet;
  journal: JournalSink;
  /** Where pets are printed as they are created; absent: kept for a table at the end. */
  rows: RowOutput | undefined;
  signals: SignalSource;
  /** The run is called off (an agent's cancelled call): it drains as on a first signal. */
  cancel?: AbortSignal | undefined;
  /** Reports a record that did not end created (its 1-based position, name, a hint). */
  reportRecord: (error: unknown, record: { position: number; name: string; hint?: Hint }) => void;
  /** A line on stderr (what a first signal does). */
  say: (line: string) => void;
  /** After each record this run sent settles (created, failed or unknown): for a progress line. */
  onSettled?: ((ledger: Ledger, run: { stopping: boolean; inFlight: number }) => void) | undefined;
  /** A second signal stops the run at once: what it became, before its error is reported. */
  onAbandoned?: ((ledger: Ledger) => void) | undefined;
}

export interface BulkOptions {
  /** What becomes of each record (made by the caller: the plan tells it what earlier runs left). */
  ledger: Ledger;
  /** The records to send, in input order, each made as it is asked for. */
  send: AsyncIterable<BulkRecord>;
  /** Pets earlier runs created to print first (none: they are not printed again, or a table). */
  earlierToPrint?: Iterable<{ pet: Pet; record: number }> | undefined;
  /** How many pets earlier runs printed that this one does not print again. */
  printedEarlier?: number | undefined;
  concurrency: number;
  failFast: boolean;
  /** Send a record whose outcome turns unknown again, with its key (--retry-unknown). */
  resendUnknown: boolean;
  /** How the run names its target, for the summary. */
  target: string;
  /** The command that completes this run, for the hints. */
  resumeCommand: string;
}

/** Why a run starts no more requests. */
export type StopReason = 'fail-fast' | 'run-wide failure' | 'stdout closed' | 'cancelled';

export interface BulkResult {
  ledger: Ledger;
  reason: StopReason | 'signal' | undefined;
  signal: StopSignal | undefined;
  /** A failure that ended the whole run (a refused key, a journal that cannot be written). */
  fatal: Error | undefined;
}

/** How many records per worker are journaled as queued ahead of their requests. */
const QUEUED_PER_WORKER = 4;

/**
 * Adds many pets, `concurrency` at a time. Before a record's request goes out, its `sending`
 * entry (its key) is on disk; after, its outcome is journaled, then its pet printed. Whatever
 * stops a run early (--fail-fast, a failure every record would meet, a closed stdout, a first
 * SIGINT or SIGTERM), it starts no new request, lets those in flight finish and records them.
 * A second signal stops at once (InterruptedError), naming the records in flight unknown.
 */
export async function runBulk(ports: BulkPorts, options: BulkOptions): Promise<BulkResult> {
  return new BulkRun(ports, options).run();
}

class BulkRun {
  private readonly ledger: Ledger;
  private readonly stop: StopController<StopReason>;
  private readonly printer: Printer | undefined;
  private readonly inFlight = new Set<number>();
  private fatal: Error | undefined;
  /** A second signal stopped the run at once: answers still coming in are not recorded. */
  private abandoned = false;
  /** The records journaled as queued, ahead of their requests. */
  private readonly ahead: QueuedAhead;

  constructor(
    private readonly ports: BulkPorts,
    private readonly options: BulkOptions,
  ) {
    this.ledger = options.ledger;
    this.ahead = new QueuedAhead(options.send, ports.journal, {
      size: options.concurrency * QUEUED_PER_WORKER,
      stopping: () => this.stop.stopping,
    });
    this.stop = new StopController<StopReason>(ports.signals, {
      onFirst: (signal) =>
        ports.say(
          `petstore: ${signal}: starting no more requests; waiting for ${this.inFlight.size} in flight (send it again to stop at once)`,
        ),
      onSecond: (signal) => this.abandon(signal),
    });
    this.printer =
      ports.rows &&
      new Printer(ports.rows, ports.journal, {
        onClosed: () => this.stop.stop('stdout closed'),
        onError: (error) => this.failRun(error),
      });
  }

  async run(): Promise<BulkResult> {
    const unlisten = this.stop.stopWhen(this.ports.cancel, 'cancelled', () =>
      this.ports.say(`cancelled: starting no more requests; ${this.inFlight.size} in flight`),
    );
    try {
      // Whatever the format, a pet an earlier run printed is not printed again unasked.
      await this.untilStoppedAtOnce(this.printEarlier());
      const workers = Array.from({ length: this.options.concurrency }, () => this.worker());
      await this.untilStoppedAtOnce(Promise.all(workers));
      // Signals are still handled while the last pets go out to a slow stdout: a first one
      // lets them finish, then the summary; a second stops at once.
      await this.untilStoppedAtOnce(this.printer?.drain());
    } finally {
      unlisten();
      this.stop.dispose();
      await this.ahead.withdrawUnsent();
    }
    return {
      ledger: this.ledger,
      reason: this.stop.reason,
      signal: this.stop.signal,
      fatal: this.fatal,
    };
  }

  /** The pets earlier runs created and did not print, before anything is sent. */
  private async printEarlier(): Promise<void> {
    if (this.printer === undefined || this.options.earlierToPrint === undefined) return;
    for (const { pet, record } of this.options.earlierToPrint) {
      if (this.stop.stopping) break;
      this.ledger.listId(pet);
      this.printer.print(pet, record);
      // A page at a time into stdout: a catch-up of millions is never held at once.
      await this.printer.drain();
    }
  }

  /** Waits for the work, unless a second signal stops the run at once (InterruptedError). */
  private async untilStoppedAtOnce(work: Promise<unknown> | undefined): Promise<void> {
    await Promise.race([work, this.stop.abandoned]);
  }

  private async worker(): Promise<void> {
    while (!this.stop.stopping) {
      let next: { record: BulkRecord; sequence: number } | undefined;
      try {
        next = await this.ahead.take();
      } catch (error) {
        // The input could not be read again as it was: no record after it is sent.
        this.failRun(error);
        return;
      }
      if (next === undefined) return;
      // Stopped while it was being read: it goes back, to be withdrawn.
      if (this.isStopping()) {
        this.ahead.putBack(next);
        return;
      }
      await this.send(next.record, next.sequence);
    }
  }

  /** Read anew each time: a signal may have come while the run waited. */
  private isStopping(): boolean {
    return this.stop.stopping;
  }

  private async send(
    { index, pet, key, maybeSentBefore, resendsUnknown }: BulkRecord,
    sequence: number,
  ): Promise<void> {
    const record = index + 1;
    const { journal } = this.ports;
    try {
      // The record's key is on disk before its request leaves: a run killed at any moment,
      // even by a power loss, leaves a journal that knows every record that may be created.
      await journal.syncedThrough(sequence);
      // Committed (not synced) just before the request, with those of every request that
      // goes out in this turn: the journal keeps it after any kill -9, so a queued record
      // without it was not sent; only a new boot makes that uncertain.
      await journal.committedThrough(journal.append({ type: 'sending', record }));
    } catch (error) {
      // A journal that cannot be written concerns every record: none is sent without it.
      this.failRun(error);
      return;
    }
    this.ledger.started++;
    this.inFlight.add(index);
    try {
      // Set by the client when the service answers from an earlier request with this key.
      const answer = { replayed: false };
      let created: Pet;
      try {
        created = await this.ports.createPet(pet, {
          idempotencyKey: key,
          record: index + 1,
          resendWhenUnknown: this.options.resendUnknown,
          // The service answered from an earlier request: one before this run, unless this
          // run's own unanswered send of a key no earlier run can have sent made it.
          onReplayed: ({ afterUnansweredSend }) =>
            (answer.replayed = !afterUnansweredSend || maybeSentBefore),
        });
      } catch (error) {
        if (this.abandoned) return;
        if (neverReachedService(error)) {
          // No byte reached the service: the record is as it was before this attempt, sent
          // again by a plain resume, and the service is unreachable for every record: the run
          // stops rather than fail them one by one.
          journal.append({ type: 'withdrawn', record });
          journal.flush();
          this.ledger.started--;
          this.failRun(error);
          return;
        }
        const unknown = mayHaveBeenCreated(error, resendsUnknown);
        // With its name: `journal show` says which pet it was, where none was made.
        const summary = { ...summarize(error), name: shortText(pet.name, 200) };
        journal.append({ type: unknown ? 'unknown' : 'failed', record, error: summary });
        journal.flush();
        throw error;
      }
      // Stopped at once (a second signal) while this was in flight: the run has said it is
      // unknown, and so it stays, in the journal too (its `sending` line), not contradicted.
      if (this.abandoned) return;
      // Only a `sending` must be on disk first: a `created` reaches the file before the pet's
      // line reaches stdout (the printer flushes the journal first).
      const { replayed } = answer;
      journal.append(
        replayed
          ? { type: 'created', record, pet: created, replayed }
          : { type: 'created', record, pet: created },
      );
      this.ledger.created(created, replayed);
      this.emit(created, record);
    } catch (error) {
      this.recordFailure(index, pet, error, resendsUnknown);
    } finally {
      this.inFlight.delete(index);
      this.ports.onSettled?.(this.ledger, {
        stopping: this.stop.stopping,
        inFlight: this.inFlight.size,
      });
    }
  }

  private recordFailure(index: number, pet: NewPet, error: unknown, resendsUnknown: boolean): void {
    if (concernsWholeRun(error)) {
      this.failRun(error);
      return;
    }
    const unknown = mayHaveBeenCreated(error, resendsUnknown);
    if (unknown) this.ledger.outcomeUnknown(index, error);
    else this.ledger.failed(index, error);
    if (this.options.failFast) this.stop.stop('fail-fast');
    this.ports.reportRecord(error, {
      position: index + 1,
      name: pet.name,
      // The run's own way to send it again: resume, not the single-pet command.
      hint: unknown ? unknownHint(this.options.resumeCommand) : undefined,
    });
  }

  private failRun(error: unknown): void {
    this.stop.stop('run-wide failure');
    this.fatal ??= asError(error);
  }

  /** Prints a pet as it is created; for a table, the caller reads them from the journal. */
  private emit(pet: Pet, record: number): void {
    this.printer?.print(pet, record);
  }

  /** The error of a second signal: the records in flight are unknown. */
  private abandon(signal: StopSignal): InterruptedError {
    this.abandoned = true;
    const inFlight = [...this.inFlight].sort((a, b) => a - b);
    for (const index of inFlight) this.ledger.outcomeUnknown(index);
    this.ports.onAbandoned?.(this.ledger);
    return new InterruptedError(
      `stopped at once on a second ${signal}: ${this.ledger.summary(this.options.target)}`,
      {
        signal,
        immediate: true,
        hint: inFlight.length ? unknownHint(this.options.resumeCommand) : undefined,
      },
    );
  }
}

/**
 * Whether a record whose request failed may still have been created: no answer came, or it
 * was an unknown one sent again with its key, and this refusal says nothing of what the first
 * send did (a service may refuse before it looks its keys up). Such a record stays unknown,
 * sent again only with that key: failed, it would be retried with a new key, and could be
 * created twice.
 */
function mayHaveBeenCreated(error: unknown, resendsUnknown: boolean): boolean {
  if (error instanceof PetstoreError && error.outcomeUnknown) return true;
  return resendsUnknown && error instanceof ApiError;
}
