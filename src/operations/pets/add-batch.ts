import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { PetstoreClient, RequestPreview } from '../../api/client.js';
import { concludeBulk } from '../../bulk/conclude.js';
import type { JournalContents } from '../../bulk/record-states.js';
import { noJournal } from '../../bulk/journal-file.js';
import { JournalStore } from '../../bulk/journal-store.js';
import { expiredKeys, keyWindowError, resentKeys } from '../../bulk/key-window.js';
import type { BulkCounts } from '../../bulk/ledger.js';
import type { EarlierOutcomes } from '../../bulk/plan.js';
import { runBulk, type BulkPorts, type BulkResult } from '../../bulk/runner.js';
import { bootId } from '../../core/boot-id.js';
import { ApiError, UsageError } from '../../core/errors.js';
import { parseHttpDate } from '../../core/http-date.js';
import type { Pet } from '../../core/interface.js';
import type { SignalSource } from '../../core/stop.js';
import {
  prepare,
  setAside,
  warnOfRecords,
  warnUnknownSinceQueued,
  type AddBatchRequest,
  type Prepared,
} from './add-batch-plan.js';
import { findJournal } from '../journal/find.js';
import { openJournal, warnIfNetworked } from './batch-journal.js';
import { refuseMovedRecords } from './named-batch.js';

export type { AddBatchRequest } from './add-batch-plan.js';

/** Where a batch sends, and how the person or program driving it reaches it again. */
export interface BatchTarget {
  /** "profile staging", or the URL given. */
  label: string;
  /** The service itself, as a journal names it (a resume must reach the same one). */
  service: string;
}

/** The service a batch sends to, and how it is reached. */
export interface BatchService {
  client: Pick<PetstoreClient, 'createPet' | 'previewCreatePet' | 'listPetsPage'>;
  target: BatchTarget;
}

/** What a batch uses: the service, the files it keeps, and the process it runs in. */
export interface AddBatchDeps {
  /**
   * Reaches the service: called once the input and the journal are read and checked, so a bad
   * input is refused as such (exit 2) whatever the key or profile, and nothing is started
   * (not even the embedded sandbox) for an input that cannot be sent.
   */
  connect(): Promise<BatchService>;
  /** Reads the input: a path, or `-` for the front end's standard input. */
  readInput(input: string): Promise<string>;
  /** Where new runs keep their journals, and where `--resume BATCH` looks. */
  journalsDir: string;
  /** Ctrl-C and SIGTERM: a first lets the writes in flight finish, a second stops at once. */
  signals: SignalSource;
  /** The batch is called off (an agent's cancelled call): as a first signal, without one. */
  cancel?: AbortSignal | undefined;
  /** The command (or call) that completes the run from its journal, as its driver words it. */
  resumeCommand(journal: string, input: string): string;
}

/** A batch's dependencies once it has reached the service. */
type Connected = Omit<AddBatchDeps, 'connect'> & BatchService;

/** A record that did not end created: its 1-based position, its name, a hint. */
type RecordReport = Parameters<BulkPorts['reportRecord']>[1];

/** What a batch tells its front end as it goes. */
export interface AddBatchEvents {
  /** The run is journaled: where, how to complete it, its batch and how many records it sends. */
  onJournal(run: { journal: string; resume: string; batch: string; toSend: number }): void;
  /** Each created pet's line, as it is confirmed (NDJSON, CSV...); undefined: a table at the end. */
  rows: BulkPorts['rows'];
  /** The pets for a table, once the run ended; resolves true once they left whole. */
  printTable(pets: Pet[]): Promise<boolean>;
  /** A record that failed, or whose outcome is unknown; `note`, a hint about it alone. */
  reportRecord(error: unknown, record: RecordReport, note?: string): void;
  /** A line of the run's own (the note of a second signal). */
  say(line: string): void;
  /** Each record settled, for a progress line. */
  onSettled: NonNullable<BulkPorts['onSettled']>;
  /** Stopped at once (a second signal): the counts so far, before the error. */
  onAbandoned(counts: BulkCounts): void;
  /** A dry run's request for a record: nothing is sent. */
  onDryRun(record: number, request: RequestPreview): void;
  /** Something the person should know that does not stop the run. */
  warn(message: string): void;
  /** Records set aside (--skip-invalid): how many, and a file of them in the input's format. */
  onRejected?(count: number, rejects: string, dryRun: boolean): Promise<void>;
  /** Why stdout failed, when it did (its output is then incomplete). */
  stdoutFailure(): NodeJS.ErrnoException | undefined;
}

/** What a dry run would have sent: nothing was. */
export interface DryRunOutcome {
  kind: 'dry run';
  requests: number;
  batch: string;
}

/** What a batch did, for its front end to report. */
export interface AddBatchOutcome {
  kind: 'sent';
  journal: string;
  batch: string;
  /** How many records its earlier runs printed that this one did not print again. */
  printedEarlier: number;
  /** The records earlier runs left failed or unknown, and their names. */
  earlier: EarlierOutcomes;
  nameOf: (index: number) => string;
  counts: BulkCounts;
  /** One line: what the run did ("3 records to profile staging: created 3 now"). */
  summary: string;
  /** How the run failed, if it did: thrown by the front end once it said the rest. */
  error: Error | undefined;
  /** The error is the run's first fatal failure (its pets still count as created). */
  fatal: boolean;
  /** Records of the input set aside as invalid (--skip-invalid), never sent. */
  rejected: number;
}

/**
 * Adds a batch of pets from a file exactly once (`pets import`), or completes a journaled
 * run (`--resume`): read, check, plan, journal, send; or, as a dry run, say what it would send.
 */
export async function addBatch(
  deps: AddBatchDeps,
  asked: AddBatchRequest,
  events: AddBatchEvents,
): Promise<AddBatchOutcome | DryRunOutcome> {
  // --resume takes a journal's path or its batch id.
  const request =
    asked.resume === undefined
      ? asked
      : { ...asked, resume: await findJournal(asked.resume, deps.journalsDir) };
  // A resumed run holds its journal's lock from before reading it to its end (a dry run reads).
  let held: JournalStore | undefined;
  let earlier: JournalContents | undefined;
  if (request.resume !== undefined) {
    // Named as given when it is not there; absolute once found, for the command that completes it.
    if (!existsSync(request.resume)) throw noJournal(request.resume);
    const path = resolve(request.resume);
    if (request.dryRun) earlier = await JournalStore.readAt(path, bootId());
    else {
      await warnIfNetworked(path, (message) => events.warn(message));
      held = await JournalStore.open(path);
      earlier = held.read(bootId());
    }
  }
  try {
    return await addFromFile(deps, request, events, { held, earlier });
  } finally {
    await held?.close();
  }
}

/** The input a run reads, its records planned against the journal of the run it completes. */
async function addFromFile(
  deps: AddBatchDeps,
  request: AddBatchRequest,
  events: AddBatchEvents,
  resumed: { held: JournalStore | undefined; earlier: JournalContents | undefined },
): Promise<AddBatchOutcome | DryRunOutcome> {
  const prepared = await prepare((input) => deps.readInput(input), request, resumed.earlier);
  const { input, plan, earlier } = prepared;
  const connected: Connected = { ...deps, ...(await deps.connect()) };
  const { client, target } = connected;
  warnUnknownSinceQueued(prepared, events);
  if (request.resume === undefined)
    warnOfRecords(prepared.records, input, (message) => events.warn(message));
  await setAside(prepared, request.dryRun, events);
  if (earlier?.service !== undefined && earlier.service !== target.service) {
    throw new UsageError(
      `the journaled run sent to ${earlier.target} (${earlier.service}); this one would send to ${target.label} (${target.service}); nothing was sent`,
      {
        hint: 'Resume against the same service: give the --profile or --base-url the first run used.',
      },
    );
  }
  await refuseMovedRecords(prepared, deps.journalsDir, prepared.firstKey);
  await checkKeyWindow(connected, request, prepared, events);
  if (request.dryRun) {
    // One request per record that would be sent, with the record it is for.
    for (let position = 0; position < plan.send.length; position++) {
      const { index, pet, key } = plan.send.record(position);
      events.onDryRun(index + 1, client.previewCreatePet(pet, { idempotencyKey: key }));
    }
    return { kind: 'dry run', requests: plan.send.length, batch: prepared.batch };
  }
  if (
    request.journal !== undefined &&
    input !== '-' &&
    resolve(request.journal) === resolve(input)
  ) {
    throw new UsageError('--journal names the input file; the journal needs a file of its own', {
      hint: 'Leave --journal out (one is made in the journals folder), or give another path.',
    });
  }
  const journal = await openJournal(connected, request, prepared, resumed.held, (message) =>
    events.warn(message),
  );
  // A batch made for this run has one journal: in the journals folder, its id names it.
  const byBatch =
    !prepared.namedBatch && dirname(resolve(journal.path)) === resolve(deps.journalsDir);
  const resume = deps.resumeCommand(byBatch ? prepared.batch : journal.path, input);
  events.onJournal({
    journal: journal.path,
    resume,
    batch: prepared.batch,
    toSend: plan.send.length,
  });
  let outcome: AddBatchOutcome;
  try {
    outcome = await send(connected, request, events, prepared, { journal, resume });
  } catch (error) {
    await journal.close().catch(() => undefined);
    throw error;
  }
  // A journal that cannot take the run's last entries (a full disk) fails the run, after its
  // summary, as any failure to write it does; one that failed already says so once.
  const closing = await journal.close().then(
    () => undefined,
    (error: unknown) => error as Error,
  );
  if (closing !== undefined && outcome.error === undefined) {
    return { ...outcome, error: closing, fatal: true };
  }
  return outcome;
}

/**
 * Refuses, before anything is sent, a run that would send again keys the service may have
 * forgotten (see bulk/key-window.ts); a dry run says so instead. The service's clock is asked
 * (one GET) when this machine's finds none past: this machine's may have been set back.
 */
async function checkKeyWindow(
  deps: Connected,
  request: AddBatchRequest,
  { plan, earlier }: Prepared,
  events: Pick<AddBatchEvents, 'warn'>,
): Promise<void> {
  const resent = resentKeys(plan.send, earlier);
  if (resent.length === 0 || request.keyWindow.ignore) return;
  const local = Date.now();
  let expired = expiredKeys(resent, { local }, request.keyWindow);
  if (expired.length === 0) {
    const page = await deps.client.listPetsPage({ limit: 1 });
    const service = parseHttpDate(page.headers.date ?? '');
    if (Number.isFinite(service))
      expired = expiredKeys(resent, { local, service }, request.keyWindow);
  }
  if (expired.length === 0) return;
  const error = keyWindowError(expired, request.keyWindow);
  if (!request.dryRun) throw error;
  events.warn(error.message.replace(/; nothing was sent$/, ''));
}

/**
 * The pets of a table (a table waits for the end of the run), then, once they left the
 * process whole, each journaled printed: a resume prints only the rows no run printed.
 */
async function printTable(
  events: AddBatchEvents,
  rows: { pet: Pet; record: number }[],
  journal: JournalStore,
): Promise<void> {
  if (rows.length === 0) return;
  if (!(await events.printTable(rows.map((row) => row.pet)))) return;
  for (const { record } of rows) journal.append({ type: 'printed', record });
  journal.flush();
}

/** The service refused a record's Idempotency-Key: sent before with another body. */
function isKeyRefusal(error: unknown): boolean {
  return error instanceof ApiError && /idempotency/i.test(error.code);
}

function keyReusedHint(batch: string): string {
  return `Batch ${batch} sent another record at this position: the input changed since that batch ran (a record edited, inserted or removed). Restore the input, or send new and changed records as a batch of their own (another --batch-id, or none).`;
}

async function send(
  deps: Connected,
  request: AddBatchRequest,
  events: AddBatchEvents,
  prepared: Prepared,
  run: { journal: JournalStore; resume: string },
): Promise<AddBatchOutcome> {
  const { plan, batch, digests } = prepared;
  const { client, target } = deps;
  let clockJournaled = false;
  const result: BulkResult = await runBulk(
    {
      // The service's clock, once a run: how old its keys are by the service's own reckoning.
      createPet: (pet, write) =>
        client.createPet(pet, {
          ...write,
          onServiceDate: (service) => {
            if (clockJournaled) return;
            clockJournaled = true;
            run.journal.append({ type: 'clock', at: new Date().toISOString(), service });
          },
        }),
      journal: run.journal,
      rows: events.rows,
      signals: deps.signals,
      cancel: deps.cancel,
      reportRecord: (error, record) =>
        events.reportRecord(error, record, isKeyRefusal(error) ? keyReusedHint(batch) : undefined),
      say: (line) => events.say(line),
      onSettled: events.onSettled,
      onAbandoned: (ledger) => events.onAbandoned(ledger.counts()),
    },
    {
      total: digests.records.length,
      send: plan.send,
      earlier: plan.earlier,
      concurrency: request.concurrency,
      failFast: request.failFast,
      resendUnknown: request.retryUnknown,
      printAll: request.printAll,
      target: target.label,
      resumeCommand: run.resume,
    },
  );
  await printTable(events, result.forTable, run.journal);
  const { summary, error } = concludeBulk(result, {
    target: target.label,
    resumeCommand: run.resume,
    journal: run.journal.path,
    stdoutFailure: events.stdoutFailure(),
    skipped: { failed: plan.earlier.failed.length, unknown: plan.earlier.unknown.length },
  });
  return {
    kind: 'sent',
    journal: run.journal.path,
    batch,
    printedEarlier: result.printedEarlier,
    earlier: plan.earlier,
    nameOf: (index) => prepared.records.at(index).name,
    counts: result.ledger.counts(),
    summary,
    error,
    fatal: error !== undefined && error === result.fatal,
    rejected: prepared.records.rejected.length,
  };
}
