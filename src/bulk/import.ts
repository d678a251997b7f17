import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { bootId } from '../core/boot-id.js';
import { ApiError } from '../core/errors.js';
import type { Pet } from '../core/interface.js';
import { parseJson } from '../core/json.js';
import { sqliteFailure } from '../core/sqlite.js';
import { option, phrase, type Phrase } from '../core/phrase.js';
import { SameInput, shardText } from './check.js';
import { concludeBulk } from './conclude.js';
import { defaultJournalPath, warnIfNetworked } from './import-checks.js';
import { prepare } from './import-prepare.js';
import type {
  DryRunOutcome,
  ImportEvents,
  ImportOutcome,
  ImportPorts,
  ImportRequest,
  ImportService,
  Prepared,
} from './import-types.js';
import type { RunHeader } from './journal-entries.js';
import { noJournal } from './journal-file.js';
import { damaged } from './journal-reader.js';
import { writeHeader } from './journal-db.js';
import { JournalStore } from './journal-store.js';
import { Ledger } from './ledger.js';
import { planRecords, type BulkRecord } from './plan.js';
import { runBulk } from './runner.js';
import { StopReading } from './stop-reading.js';

export type * from './import-types.js';

/**
 * `pets import` (and an agent's add_pets): the one entry point of the bulk engine. It reads
 * the input twice as it streams (first to check every record, digesting each into the draft of
 * the run's journal; then to send), plans from the journal, runs, and concludes; the operation
 * supplies its ports. Memory stays flat in the input's size: per record, the journal keeps
 * what is needed (docs/decisions/0011).
 */

/** The most pets a table at the end of a run shows; the journal has every one. */
const TABLE_MOST = 10_000;

/**
 * Imports pets exactly once from an input (`pets import`), or completes a journaled run
 * (`--resume`): read and check, plan, journal, send; or, as a dry run, say what it would send.
 */
export async function runImport<Preview>(
  ports: ImportPorts<Preview>,
  request: ImportRequest,
  events: ImportEvents<Preview>,
): Promise<ImportOutcome | DryRunOutcome> {
  // A resumed run holds its journal's lock from before reading it to its end (a dry run reads).
  let held: Prepared['held'];
  if (request.resume !== undefined) {
    // Named as given when it is not there; absolute once found, for the command that completes it.
    if (!existsSync(request.resume)) throw noJournal(request.resume);
    const path = resolve(request.resume);
    if (!request.dryRun) await warnIfNetworked(path, (message) => events.warn(message));
    const journal = await JournalStore.open(path, 1000, request.dryRun ? 'read' : 'write');
    held = { journal, header: journal.header() };
  }
  const scratch: { remove(): Promise<void> }[] = [];
  let prepared: Prepared | undefined;
  try {
    const input = request.file === '-' ? 'standard input' : (request.file ?? 'the input');
    const left = held === undefined ? 'no journal was made' : 'the journal is as it was';
    const stop = new StopReading(
      ports.signals,
      ports.cancel,
      `stopped while reading ${input}; nothing was sent, and ${left}`,
    );
    try {
      prepared = await prepare(ports, request, events, held, scratch, stop);
      stop.throwIfStopped();
    } finally {
      stop.dispose();
    }
    if (request.dryRun) return await dryRun(prepared, events);
    return await send(prepared, events);
  } catch (error) {
    // A page of the resumed journal SQLite finds unsound, met as it is read: said as damage.
    if (held !== undefined && sqliteFailure(error) === 'damaged') {
      throw damaged(resolve(request.resume!), error);
    }
    throw error;
  } finally {
    await prepared?.releaseInput?.();
    prepared?.draft?.discard();
    await prepared?.source.close();
    for (const folder of scratch) await folder.remove();
    await held?.journal.close();
  }
}

/** The records the run sends, read again; those earlier runs left are told to the ledger. */
function recordsToSend(run: Prepared, journal: JournalStore | undefined, ledger: Ledger) {
  const { request, held } = run;
  let same: (record: number, digest: string) => boolean;
  if (held !== undefined) {
    const again = new SameInput(held.journal, held.header, bootId());
    same = (record, digest) => again.record(record, digest);
  } else {
    // Against the rows the first reading wrote: the journal's, or a dry run's draft.
    const rows = (journal?.inputs() ?? run.draft!.inputs())[Symbol.iterator]();
    same = (record, digest) => {
      const next = rows.next();
      return (
        next.done !== true && next.value.record === record && digest.startsWith(next.value.digest)
      );
    };
  }
  return (async function* (): AsyncGenerator<BulkRecord> {
    const records = await run.source.read(run.check.format);
    yield* planRecords(
      {
        records: records.records,
        expected: run.check.records,
        batch: run.batch,
        inputName: run.inputName,
        namedBatch: run.namedBatch,
        shard: run.shard,
        same,
        states: held?.journal.states(bootId()),
      },
      request,
      (earlier) => ledger.earlierOutcome(earlier),
    );
  })();
}

async function dryRun<Preview>(
  run: Prepared,
  events: ImportEvents<Preview>,
): Promise<DryRunOutcome> {
  // The service as the ports gave it, with its own kind of preview.
  const service = run.service as ImportService<Preview>;
  let requests = 0;
  const ledger = new Ledger(run.check.records, 0);
  for await (const { index, pet, key } of recordsToSend(run, undefined, ledger)) {
    requests++;
    await events.onDryRun(index + 1, service.preview(pet, key));
  }
  return { kind: 'dry run', requests, batch: run.batch };
}

/** The run's journal: the resumed one, which gains this run's row, or the draft made whole. */
async function openJournal(run: Prepared, events: ImportEvents) {
  const { ports, request, check, service } = run;
  const header: RunHeader = {
    input: run.input === '-' ? '-' : resolve(run.input),
    records: check.records,
    target: service.target.label,
    service: service.target.service,
    at: new Date().toISOString(),
    batch: run.batch,
    digest: check.digest,
    content: check.content,
    boot: bootId(),
    namedBatch: run.namedBatch,
    inputFormat: check.format,
    skipInvalid: run.skipInvalid,
    rejected: check.rejected,
    shard: run.shard && shardText(run.shard),
    client: request.client,
    keyInput: run.inputName,
    trace: service.traceId,
  };
  if (run.held !== undefined) {
    run.held.journal.startRun(header);
    return run.held.journal;
  }
  // Absolute, so the command that completes the run works from any folder.
  const path = resolve(
    request.journal ??
      (await defaultJournalPath(ports.journalsDir, run.batch, service.target.service)),
  );
  await warnIfNetworked(path, (message) => events.warn(message));
  run.draft!.finish(path, (db) => writeHeader(db, header));
  return JournalStore.create(path, header);
}

/** The service refused a record's Idempotency-Key: sent before with another body. */
function isKeyRefusal(error: unknown): boolean {
  return error instanceof ApiError && /idempotency/i.test(error.code);
}

function keyReusedHint(batch: string): Phrase {
  return phrase`Batch ${batch} sent another record at this position: the input changed since that batch ran (a record edited, inserted or removed). Restore the input, or send new and changed records as a batch of their own (another ${option('batchId')}, or none).`;
}

/** Pets the journal has created, a page at a time from the start: unprinted ones, or all. */
function* createdPets(journal: JournalStore, all: boolean) {
  for (let after = 0; ;) {
    const page = journal.createdPage(after, 256, all);
    for (const { record, pet } of page) yield { record, pet: parseJson(pet) as Pet };
    if (page.length < 256) return;
    after = page.at(-1)!.record;
  }
}

async function send(run: Prepared, events: ImportEvents): Promise<ImportOutcome> {
  const { ports, request, batch } = run;
  const earlier = run.held?.journal.counts(bootId());
  const journal = await openJournal(run, events);
  // A batch made for this run has one journal: in the journals folder, its id names it.
  const byBatch = !run.namedBatch && dirname(journal.path) === resolve(ports.journalsDir);
  const resume = ports.resumeCommand(byBatch ? batch : journal.path, run.input);
  // What earlier runs left that this one does not send again.
  const left = {
    created: earlier?.created ?? 0,
    failed: request.retryFailed ? 0 : (earlier?.failed ?? 0),
    unknown: request.retryUnknown ? 0 : (earlier?.unknown ?? 0),
  };
  const toSend = run.check.records - left.created - left.failed - left.unknown;
  events.onJournal({ journal: journal.path, resume, batch, toSend });
  const ledger = new Ledger(run.check.records, toSend, left);
  const printedEarlier =
    earlier === undefined || request.printAll ? 0 : earlier.created - earlier.unprinted;
  let outcome: ImportOutcome;
  try {
    outcome = await sendJournaled(run, events, { journal, resume, ledger, printedEarlier });
  } catch (error) {
    if (run.held === undefined) await journal.close().catch(() => undefined);
    throw error;
  }
  // A journal that cannot take the run's last entries (a full disk) fails the run, after its
  // summary, as any failure to write it does; one that failed already says so once.
  const closing =
    run.held !== undefined
      ? undefined
      : await journal.close().then(
          () => undefined,
          (error: unknown) => error as Error,
        );
  if (closing !== undefined && outcome.error === undefined) {
    return { ...outcome, error: closing, fatal: true };
  }
  return outcome;
}

async function sendJournaled(
  run: Prepared,
  events: ImportEvents,
  with_: { journal: JournalStore; resume: string; ledger: Ledger; printedEarlier: number },
): Promise<ImportOutcome> {
  const { request, batch, service } = run;
  const { journal, resume, ledger } = with_;
  let clockJournaled = false;
  const result = await runBulk(
    {
      // The service's clock, once a run: how old its keys are by the service's own reckoning.
      createPet: (pet, options) =>
        service.createPet(pet, {
          ...options,
          batch,
          onServiceDate: (date) => {
            if (clockJournaled) return;
            clockJournaled = true;
            journal.append({ type: 'clock', at: new Date().toISOString(), service: date });
          },
        }),
      journal,
      rows: events.rows,
      signals: run.ports.signals,
      cancel: run.ports.cancel,
      reportRecord: (error, record) =>
        events.reportRecord(error, record, isKeyRefusal(error) ? keyReusedHint(batch) : undefined),
      say: (line) => events.say(line),
      onSettled: events.onSettled,
      onAbandoned: (abandoned) => events.onAbandoned(abandoned.counts()),
    },
    {
      ledger,
      send: recordsToSend(run, journal, ledger),
      earlierToPrint:
        events.rows === undefined ? undefined : createdPets(journal, request.printAll),
      concurrency: request.concurrency,
      failFast: request.failFast,
      resendUnknown: request.retryUnknown,
      target: service.target.label,
      resumeCommand: resume,
    },
  );
  if (events.rows === undefined) await printTable(events, journal, request.printAll);
  const { summary, error } = concludeBulk(result, {
    target: service.target.label,
    resumeCommand: resume,
    journal: journal.path,
    stdoutFailure: events.stdoutFailure(),
  });
  return {
    kind: 'sent',
    journal: journal.path,
    batch,
    printedEarlier: with_.printedEarlier,
    earlier: ledger.earlierListed,
    counts: ledger.counts(),
    summary,
    error,
    fatal: error !== undefined && error === result.fatal,
    rejected: run.check.rejected,
  };
}

/**
 * The pets of a table, in input order (a table waits for the end of the run), then, once they
 * left the process whole, each journaled printed: a resume prints only the rows no run printed.
 */
async function printTable(events: ImportEvents, journal: JournalStore, all: boolean) {
  const rows: { record: number; pet: Pet }[] = [];
  let more = 0;
  for (const row of createdPets(journal, all)) {
    if (rows.length < TABLE_MOST) rows.push(row);
    else more++;
  }
  if (rows.length === 0) return;
  if (
    !(await events.printTable(
      rows.map((row) => row.pet),
      more,
    ))
  )
    return;
  for (const { record } of rows) journal.append({ type: 'printed', record });
  journal.flush();
}
