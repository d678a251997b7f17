import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { concludeBulk } from '../../bulk/conclude.js';
import type { JournalContents } from '../../bulk/record-states.js';
import { noJournal } from '../../bulk/journal-file.js';
import { JournalStore } from '../../bulk/journal-store.js';
import { expiredKeys, keyWindowError, resentKeys } from '../../bulk/key-window.js';
import { runBulk, type BulkResult } from '../../bulk/runner.js';
import { bootId } from '../../core/boot-id.js';
import { ApiError, UsageError } from '../../core/errors.js';
import { option, phrase, type Phrase } from '../../core/phrase.js';
import { parseHttpDate } from '../../core/http-date.js';
import type { Pet } from '../../core/interface.js';
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

import type {
  AddBatchDeps,
  AddBatchEvents,
  AddBatchOutcome,
  Connected,
  DryRunOutcome,
} from './add-batch-types.js';

export type { AddBatchRequest } from './add-batch-plan.js';
export type * from './add-batch-types.js';

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
  await deps.checkTarget?.();
  const readInput = (input: string) =>
    deps.readInput?.(input) ?? Promise.reject(new Error('a batch given no pets needs readInput'));
  const prepared = await prepare(readInput, request, resumed.earlier);
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
        hint: phrase`Resume against the same service: give the ${option('profile')} or ${option('baseUrl')} the first run used.`,
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
    throw new UsageError(
      'the journal named is the input file; the journal needs a file of its own',
      {
        hint: phrase`Leave ${option('journal')} out (one is made in the journals folder), or give another path.`,
      },
    );
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

function keyReusedHint(batch: string): Phrase {
  return phrase`Batch ${batch} sent another record at this position: the input changed since that batch ran (a record edited, inserted or removed). Restore the input, or send new and changed records as a batch of their own (another ${option('batchId')}, or none).`;
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
      createPet: (pet, { record, ...write }) =>
        client.createPet(pet, {
          ...write,
          label: { operation: 'pets import', batch, record },
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
