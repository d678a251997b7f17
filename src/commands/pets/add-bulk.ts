import type { Context } from '../../context/context.js';
import {
  ApiError,
  BulkFailedError,
  ConfigError,
  InterruptedError,
  MissingCredentialError,
  NetworkError,
  OutputClosedError,
  OutputFailedError,
  PetstoreError,
  UsageError,
} from '../../core/errors.js';
import type { StopSignal } from '../../core/io.js';
import { stringifyJson } from '../../core/json.js';
import { sanitizeLine, snippet } from '../../core/sanitize.js';
import type { Pet } from '../../core/types.js';
import { errorsAsJson } from '../../output/format.js';
import {
  errorFields,
  ExitCode,
  exitCodeFor,
  reportRecordError,
} from '../../output/report-error.js';
import { PET_COLUMNS } from './columns.js';
import { encodeEntry, type ErrorSummary, type JournalWriter } from './journal.js';
import type { BulkRecord, EarlierOutcomes, SendList } from './bulk-plan.js';

export interface BulkAddOptions {
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
  /** Where each record is recorded before it is sent, and its outcome after. */
  journal: JournalWriter;
  /** The command that completes this run (resumeCommand), for the hints. */
  resumeCommand: string;
}

/** How many created ids a run that lost its stdout lists on stderr (the journal has all). */
const MAX_LISTED_IDS = 1000;

/** How many records per worker are journaled as sending ahead of their requests. */
const LOOKAHEAD_PER_WORKER = 4;

/** Why a run starts no more requests. */
type StopReason = 'fail-fast' | 'run-wide failure' | 'stdout closed' | 'signal';

/**
 * Adds many pets, `concurrency` at a time. Each created pet is written to stdout as soon as
 * the service confirms it (one JSON line, or a table at the end on a terminal with a line per
 * pet on stderr meanwhile), so an interrupted run still leaves a record of what it created.
 * A resumed run first writes the pets its journal has created but no run printed, so the
 * outputs of all runs together hold each created pet once (all of them with printAll, and in
 * a table, which only a finished run shows).
 *
 * Whatever stops a run early (--fail-fast, a failure every record would meet, a closed stdout,
 * SIGINT or SIGTERM), it starts no new request, lets those in flight finish (each bounded by
 * --timeout) and records them, then says on stderr how many pets were created, failed, left
 * unknown and not attempted. A second signal stops at once, naming the records in flight.
 */
export async function runPetsAddBulk(ctx: Context, options: BulkAddOptions): Promise<void> {
  const client = await ctx.client();
  const target = await ctx.target();
  const table = ctx.settings.output === 'table';
  // CSV and TSV rows as pets are created (a header first); JSON and NDJSON as one line each.
  const delimited =
    ctx.settings.output === 'csv' || ctx.settings.output === 'tsv'
      ? await ctx.openRows(PET_COLUMNS)
      : undefined;
  const { total, send, journal } = options;
  /** Created pets, kept only for the table shown at the end. */
  const forTable: Pet[] = [];
  /** Ids of created pets, for a stdout that closed: the first MAX_LISTED_IDS of them. */
  const createdIds: string[] = [];
  let createdCount = 0;
  const noteCreated = (pet: Pet) => {
    if (createdCount++ < MAX_LISTED_IDS) createdIds.push(pet.id.toString());
  };
  /** Records the service answered from its record of an earlier send of the same key. */
  let replayed = 0;
  const failures: { index: number; error: unknown }[] = options.earlier.failed.map(
    ({ index, error }) => ({ index, error: errorFromSummary(error) }),
  );
  const unknown: number[] = [...options.earlier.unknown];
  /** The exit codes of this run's unknown records (earlier runs' count as network, 7). */
  const unknownExitCodes = new Map<number, number>();
  const inFlight = new Set<number>();
  let next = 0;
  let stop: StopReason | undefined;
  let fatal: Error | undefined;
  let signal: StopSignal | undefined;

  const unknownHint = () =>
    `Each may or may not have been created. Resume with: ${options.resumeCommand} --retry-unknown (it sends each again with its Idempotency-Key; a service that honours the key creates nothing twice).`;
  const resumeHint = () => `Complete the run with: ${options.resumeCommand}`;
  const summary = () => {
    const notAttempted = send.length - next;
    const parts = [
      failures.length ? `${failures.length} failed` : '',
      unknown.length ? `${unknown.length} unknown (record ${positions(unknown)})` : '',
      notAttempted ? `${notAttempted} not attempted` : '',
    ].filter(Boolean);
    const tail = parts.length ? `; ${parts.join(', ')}` : '';
    const notes = [
      options.earlier.created.length ? `${options.earlier.created.length} by earlier runs` : '',
      replayed
        ? `${replayed} answered from the service's record of an earlier send of the same key`
        : '',
    ].filter(Boolean);
    const about = notes.length ? ` (${notes.join('; ')})` : '';
    return `added ${createdCount} of ${total} pets to ${target.label}${about}${tail}`;
  };

  let abandon!: (error: InterruptedError) => void;
  const abandoned = new Promise<never>((_resolve, reject) => (abandon = reject));
  const stopListening = ctx.io.onSignal((received) => {
    if (signal === undefined) {
      signal = received;
      stop ??= 'signal';
      ctx.io.stderr.write(
        `petstore: ${received}: starting no more requests; waiting for ${inFlight.size} in flight (send it again to stop at once)\n`,
      );
      return;
    }
    const inFlightNow = [...inFlight].sort((a, b) => a - b);
    for (const index of inFlightNow) if (!unknown.includes(index)) unknown.push(index);
    abandon(
      new InterruptedError(`stopped at once on a second ${received}: ${summary()}`, {
        signal: received,
        immediate: true,
        hint: inFlightNow.length ? unknownHint() : undefined,
      }),
    );
  });

  /** Pets created in this turn of the event loop, written out together at its end. */
  let toPrint: { pet: Pet; record: number }[] = [];
  const printQueued = () => {
    if (toPrint.length === 0) return;
    const batch = toPrint;
    toPrint = [];
    // The journal says `created` for each before its line is written, so a printed pet is
    // always journaled as created; `printed` is written right after the lines (made ready
    // before, so the gap is one system call): a run killed in that gap prints those pets again
    // on resume, never loses one.
    journal.flush();
    const printed = batch.map(({ record }) => encodeEntry({ type: 'printed', record }));
    if (delimited) delimited.write(batch.map(({ pet }) => pet));
    else ctx.io.stdout.write(batch.map(({ pet }) => stringifyJson(pet) + '\n').join(''));
    if (ctx.io.stdoutClosed()) {
      stop ??= 'stdout closed';
      return;
    }
    for (const entry of printed) journal.append(entry);
    journal.flush();
  };
  const emit = (pet: Pet, record: number) => {
    noteCreated(pet);
    if (table) {
      forTable.push(pet);
      ctx.notice(`created ${pet.id.toString()} ${sanitizeLine(pet.name)}`);
    } else if (toPrint.push({ pet, record }) === 1) {
      // One write to stdout (and one to the journal) for all the pets of a turn, not each.
      setImmediate(() => {
        try {
          printQueued();
        } catch (error) {
          stop ??= 'run-wide failure';
          fatal ??= error as Error;
        }
      });
    }
  };
  // `sending` entries are journaled ahead of the requests, so a record rarely waits for a disk
  // sync of its own: one sync covers many. Those a stop leaves unsent are withdrawn at the end;
  // a kill -9 leaves at most LOOKAHEAD of them journaled as unknown, never as created.
  const lookahead = options.concurrency * LOOKAHEAD_PER_WORKER;
  /** Records journaled ahead, by position, until their worker takes them. */
  const announcedRecords = new Map<number, { bulkRecord: BulkRecord; sequence: number }>();
  let announced = 0;
  const announce = () => {
    for (const until = Math.min(send.length, next + lookahead); announced < until; announced++) {
      const bulkRecord = send.record(announced);
      const { index, digest, key } = bulkRecord;
      const entry = { type: 'sending', record: index + 1, digest, key } as const;
      announcedRecords.set(announced, { bulkRecord, sequence: journal.append(entry) });
    }
  };
  /** Journals the records announced but never started as not sent, so no resume calls them unknown. */
  const withdrawUnsent = () => {
    try {
      for (let position = next; position < announced; position++) {
        journal.append({ type: 'withdrawn', record: send.indexAt(position) + 1 });
      }
    } catch {
      // A journal that cannot be written leaves them unknown: safe, only less precise.
    }
  };
  const addOne = async ({ index, pet, key }: BulkRecord, sequence: number) => {
    const record = index + 1;
    inFlight.add(index);
    try {
      await journal.syncedThrough(sequence);
      let result: Pet;
      try {
        result = await client.createPet(pet, {
          idempotencyKey: key,
          resendWhenUnknown: options.resendUnknown,
          onReplayed: () => replayed++,
        });
      } catch (error) {
        const outcomeUnknown = error instanceof PetstoreError && error.outcomeUnknown;
        journal.append({
          type: outcomeUnknown ? 'unknown' : 'failed',
          record,
          error: summarize(error),
        });
        journal.flush();
        throw error;
      }
      // Outcomes are not waited on: only a `sending` must be on disk first. A `created` reaches
      // the file before the pet's line reaches stdout (printQueued flushes first).
      journal.append({ type: 'created', record, pet: result });
      emit(result, record);
    } catch (error) {
      if (concernsWholeRun(error)) {
        stop ??= 'run-wide failure';
        fatal ??= error as Error;
        return;
      }
      const outcomeUnknown = error instanceof PetstoreError && error.outcomeUnknown;
      if (outcomeUnknown) {
        unknown.push(index);
        unknownExitCodes.set(index, exitCodeFor(error));
      } else failures.push({ index, error });
      if (options.failFast) stop ??= 'fail-fast';
      reportRecordError(
        error,
        { json: errorsAsJson(ctx.settings.output), write: (text) => ctx.io.stderr.write(text) },
        {
          position: record,
          name: snippet(pet.name, 40),
          // The run's own way to send it again: resume, not the single-pet command.
          hint: outcomeUnknown ? unknownHint() : undefined,
        },
      );
    } finally {
      inFlight.delete(index);
    }
  };
  const worker = async () => {
    while (stop === undefined && next < send.length) {
      const position = next++;
      announce();
      // announce() has just journaled this position, if no earlier call did.
      const { bulkRecord, sequence } = announcedRecords.get(position)!;
      announcedRecords.delete(position);
      await addOne(bulkRecord, sequence);
    }
  };
  try {
    for (const { index, pet, printed } of options.earlier.created) {
      if (table || options.printAll || !printed) emit(pet, index + 1);
      else noteCreated(pet);
    }
    printQueued();
    if (ctx.io.stdoutClosed()) stop = 'stdout closed';
    const workers = Array.from({ length: Math.min(options.concurrency, send.length) }, worker);
    await Promise.race([Promise.all(workers), abandoned]);
  } finally {
    stopListening();
    try {
      printQueued();
    } catch (error) {
      fatal ??= error as Error;
    }
    withdrawUnsent();
  }

  if (table && forTable.length > 0) await ctx.render(forTable, PET_COLUMNS);
  if (signal !== undefined) {
    const unfinished = unknown.length > 0 || next < send.length;
    throw new InterruptedError(`${signal}: ${summary()}`, {
      signal,
      hint: unknown.length ? unknownHint() : unfinished ? resumeHint() : undefined,
    });
  }
  if (stop === 'stdout closed') {
    const unlisted = createdCount - createdIds.length;
    const rest = unlisted
      ? ` and ${unlisted} more (every one is in the journal ${journal.path})`
      : '';
    const ids = createdCount ? `; created ids: ${createdIds.join(', ')}${rest}` : '';
    const failure = ctx.io.stdoutError();
    if (failure) {
      throw new OutputFailedError(
        failure,
        `${summary()}${ids}`,
        `Make room or send the output elsewhere, then: ${options.resumeCommand} (it prints the pets not printed yet).`,
      );
    }
    throw new OutputClosedError(`standard output was closed: ${summary()}${ids}`);
  }
  if (fatal !== undefined) {
    if (createdCount > 0) ctx.notice(`Stopped: ${summary()}.`);
    throw fatal;
  }
  if (failures.length === 0 && unknown.length === 0) {
    const text = summary();
    ctx.notice(`${text[0]!.toUpperCase()}${text.slice(1)}.`);
    return;
  }
  // The exit code of the first record, in input order, that did not end created.
  const firstFailure = failures.reduce((a, b) => (a.index < b.index ? a : b), {
    index: Infinity,
    error: undefined,
  });
  const firstUnknown = Math.min(...unknown);
  const exitCode =
    firstFailure.index < firstUnknown
      ? exitCodeFor(firstFailure.error)
      : (unknownExitCodes.get(firstUnknown) ?? ExitCode.network);
  const skipped = [
    options.earlier.failed.length ? '--retry-failed sends the failed ones again' : '',
    options.earlier.unknown.length ? '--retry-unknown the unknown ones' : '',
  ].filter(Boolean);
  throw new BulkFailedError(
    `${summary()}${stop === 'fail-fast' ? ' (--fail-fast)' : ''}${skipped.length ? ` (not sent again: ${skipped.join(', ')})` : ''}`,
    exitCode,
  );
}

/** What the journal keeps of an error: its contract fields. */
function summarize(error: unknown): ErrorSummary {
  const { code, message, status } = errorFields(error);
  return { code, message, status };
}

function errorFromSummary(summary: ErrorSummary): Error {
  return summary.status > 0
    ? new ApiError(summary.status, summary.code, summary.message)
    : new NetworkError(summary.code, summary.message);
}

/** 1-based record positions, in order. */
function positions(indexes: number[]): string {
  return [...indexes]
    .sort((a, b) => a - b)
    .map((index) => index + 1)
    .join(', ');
}

/** Failures that every record would meet alike: bad settings, no key, a key refused. */
function concernsWholeRun(error: unknown): boolean {
  return (
    error instanceof UsageError ||
    error instanceof ConfigError ||
    error instanceof MissingCredentialError ||
    (error instanceof ApiError && (error.status === 401 || error.status === 403))
  );
}
