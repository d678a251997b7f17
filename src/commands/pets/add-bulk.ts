import type { Context } from '../../context/context.js';
import {
  ApiError,
  BulkFailedError,
  ConfigError,
  InterruptedError,
  MissingCredentialError,
  NetworkError,
  OutputClosedError,
  UsageError,
} from '../../core/errors.js';
import type { StopSignal } from '../../core/io.js';
import { stringifyJson } from '../../core/json.js';
import { UNKNOWN_PET_OUTCOME } from '../../core/unknown-outcome.js';
import { sanitizeLine, snippet } from '../../core/sanitize.js';
import type { NewPet, Pet } from '../../core/types.js';
import { ExitCode, exitCodeFor, reportRecordError } from '../../output/report-error.js';
import { PET_COLUMNS } from './columns.js';

export interface BulkAddOptions {
  pets: NewPet[];
  concurrency: number;
  failFast: boolean;
}

/** For records left unknown: each may or may not have been created. */
const UNKNOWN_OUTCOME_HINT = `Each ${UNKNOWN_PET_OUTCOME.what.replace(/^the /, '')}. ${UNKNOWN_PET_OUTCOME.hint}`;

/** Why a run starts no more requests. */
type StopReason = 'fail-fast' | 'run-wide failure' | 'stdout closed' | 'signal';

/**
 * Adds many pets, `concurrency` at a time. Each created pet is written to stdout as soon as
 * the service confirms it (one JSON line, or a table at the end on a terminal with a line per
 * pet on stderr meanwhile), so an interrupted run still leaves a record of what it created.
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
  const total = options.pets.length;
  /** Created pets, kept only for the table shown at the end. */
  const forTable: Pet[] = [];
  const createdIds: string[] = [];
  const failures: { index: number; error: unknown }[] = [];
  const unknown: number[] = [];
  const inFlight = new Set<number>();
  let next = 0;
  let stop: StopReason | undefined;
  let fatal: Error | undefined;
  let signal: StopSignal | undefined;

  const summary = () => {
    const notAttempted = total - next;
    const parts = [
      failures.length ? `${failures.length} failed` : '',
      unknown.length ? `${unknown.length} unknown (record ${positions(unknown)})` : '',
      notAttempted ? `${notAttempted} not attempted` : '',
    ].filter(Boolean);
    const tail = parts.length ? `; ${parts.join(', ')}` : '';
    return `added ${createdIds.length} of ${total} pets to ${target.label}${tail}`;
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
        hint: inFlightNow.length ? UNKNOWN_OUTCOME_HINT : undefined,
      }),
    );
  });

  const addOne = async (index: number) => {
    const pet = options.pets[index]!;
    inFlight.add(index);
    try {
      const result = await client.createPet(pet);
      createdIds.push(result.id.toString());
      if (table) {
        forTable.push(result);
        ctx.notice(`created ${result.id.toString()} ${sanitizeLine(result.name)}`);
      } else {
        ctx.io.stdout.write(stringifyJson(result) + '\n');
        if (ctx.io.stdoutClosed()) stop ??= 'stdout closed';
      }
    } catch (error) {
      if (concernsWholeRun(error)) {
        stop ??= 'run-wide failure';
        fatal ??= error as Error;
        return;
      }
      if (error instanceof NetworkError && error.outcomeUnknown) unknown.push(index);
      else failures.push({ index, error });
      if (options.failFast) stop ??= 'fail-fast';
      reportRecordError(
        error,
        { json: !table, write: (text) => ctx.io.stderr.write(text) },
        { position: index + 1, name: snippet(pet.name, 40) },
      );
    } finally {
      inFlight.delete(index);
    }
  };
  const worker = async () => {
    while (stop === undefined && next < total) await addOne(next++);
  };
  try {
    if (ctx.io.stdoutClosed()) stop = 'stdout closed';
    const workers = Array.from({ length: Math.min(options.concurrency, total) }, worker);
    await Promise.race([Promise.all(workers), abandoned]);
  } finally {
    stopListening();
  }

  if (table && forTable.length > 0) await ctx.render(forTable, PET_COLUMNS);
  if (signal !== undefined) {
    throw new InterruptedError(`${signal}: ${summary()}`, {
      signal,
      hint: unknown.length ? UNKNOWN_OUTCOME_HINT : undefined,
    });
  }
  if (stop === 'stdout closed') {
    const ids = createdIds.length ? `; created ids: ${createdIds.join(', ')}` : '';
    throw new OutputClosedError(`standard output was closed: ${summary()}${ids}`);
  }
  if (fatal !== undefined) {
    if (createdIds.length > 0) ctx.notice(`Stopped: ${summary()}.`);
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
  const exitCode =
    firstFailure.index < Math.min(...unknown) ? exitCodeFor(firstFailure.error) : ExitCode.network;
  throw new BulkFailedError(
    `${summary()}${stop === 'fail-fast' ? ' (--fail-fast)' : ''}`,
    exitCode,
  );
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
