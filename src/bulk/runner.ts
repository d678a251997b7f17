import type { Hint } from '../core/phrase.js';
import { ApiError, InterruptedError, neverReachedService, PetstoreError } from '../core/errors.js';
import type { StopSignal } from '../core/io.js';
import { StopController, type SignalSource } from '../core/stop.js';
import type { NewPet, Pet } from '../core/interface.js';
import type { JournalSink } from './journal-entries.js';
import { Ledger } from './ledger.js';
import type { BulkRecord, EarlierOutcomes, SendList } from './plan.js';
import { Printer, type RowOutput } from './printer.js';
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
  /** How many records the input holds. */
  total: number;
  /** The records to send, in input order. */
  send: SendList;
  earlier: EarlierOutcomes;
  concurrency: number;
  failFast: boolean;
  /** Send a record whose outcome turns unknown again, with its key (--retry-unknown). */
  resendUnknown: boolean;
  /** Print the pets earlier runs printed too, not only those they did not. */
  printAll: boolean;
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
  /**
   * The pets for the table (with their 1-based records), when there are no rows to print them
   * as they come: those no earlier run printed, or all with --print-all. Printed (and
   * journaled so) by the caller, once the run is over.
   */
  forTable: { pet: Pet; record: number }[];
  /** Pets earlier runs printed, and this one did not again (no --print-all). */
  printedEarlier: number;
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
  private readonly forTable: { pet: Pet; record: number }[] = [];
  private printedEarlier = 0;
  private readonly inFlight = new Set<number>();
  private fatal: Error | undefined;
  /** A second signal stopped the run at once: answers still coming in are not recorded. */
  private abandoned = false;
  /** The next position of the send list to start, and how far `queued` was journaled. */
  private next = 0;
  private queuedUntil = 0;
  private readonly queued = new Map<number, { record: BulkRecord; sequence: number }>();

  constructor(
    private readonly ports: BulkPorts,
    private readonly options: BulkOptions,
  ) {
    this.ledger = new Ledger(options.total, options.send.length, options.earlier);
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
      for (const { index, pet, printed } of this.options.earlier.created) {
        this.ledger.listId(pet);
        if (this.options.printAll || !printed) this.emit(pet, index + 1);
        else this.printedEarlier++;
      }
      await this.untilStoppedAtOnce(this.printer?.drain());
      const { concurrency, send } = this.options;
      const workers = Array.from({ length: Math.min(concurrency, send.length) }, () =>
        this.worker(),
      );
      await this.untilStoppedAtOnce(Promise.all(workers));
      // Signals are still handled while the last pets go out to a slow stdout: a first one
      // lets them finish, then the summary; a second stops at once.
      await this.untilStoppedAtOnce(this.printer?.drain());
    } finally {
      unlisten();
      this.stop.dispose();
      this.withdrawUnsent();
    }
    return {
      ledger: this.ledger,
      reason: this.stop.reason,
      signal: this.stop.signal,
      fatal: this.fatal,
      forTable: this.forTable,
      printedEarlier: this.printedEarlier,
    };
  }

  /** Waits for the work, unless a second signal stops the run at once (InterruptedError). */
  private async untilStoppedAtOnce(work: Promise<unknown> | undefined): Promise<void> {
    await Promise.race([work, this.stop.abandoned]);
  }

  private async worker(): Promise<void> {
    const { send } = this.options;
    while (!this.stop.stopping && this.next < send.length) {
      const position = this.next++;
      this.queue();
      // queue() has just journaled this position, if no earlier call did.
      const { record, sequence } = this.queued.get(position)!;
      this.queued.delete(position);
      await this.send(record, sequence);
    }
  }

  /**
   * Journals `queued` for the records about to go out, ahead of their requests, so a record
   * rarely waits for a disk sync of its own: one sync covers many. Whether each was then sent
   * is its `sending` line (see send). Those a stop leaves unsent are withdrawn at the end.
   */
  private queue(): void {
    const { send, concurrency } = this.options;
    const until = Math.min(send.length, this.next + concurrency * QUEUED_PER_WORKER);
    for (; this.queuedUntil < until; this.queuedUntil++) {
      const record = send.record(this.queuedUntil);
      const { index, digest, key } = record;
      const sequence = this.ports.journal.append({
        type: 'queued',
        record: index + 1,
        digest,
        key,
      });
      this.queued.set(this.queuedUntil, { record, sequence });
    }
  }

  /** Journals the records queued but never sent as withdrawn: no resume need wonder. */
  private withdrawUnsent(): void {
    try {
      for (let position = this.next; position < this.queuedUntil; position++) {
        const record = this.options.send.indexAt(position) + 1;
        this.ports.journal.append({ type: 'withdrawn', record });
      }
      this.ports.journal.flush();
    } catch {
      // A journal that cannot be written leaves them queued: a resume in this boot knows they
      // were not sent (no `sending` line), one after a reboot takes them for unknown.
    }
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
        journal.append({ type: unknown ? 'unknown' : 'failed', record, error: summarize(error) });
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

  private emit(pet: Pet, record: number): void {
    if (this.printer) this.printer.print(pet, record);
    else this.forTable.push({ pet, record });
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
