import { sameService } from './journal-list.js';
import { holdInput, keyInputOfBatch } from './import-checks.js';
import { basename, dirname, resolve } from 'node:path';
import { bootId } from '../core/boot-id.js';
import type { InputFormat } from '../core/contract.js';
import { UsageError } from '../core/errors.js';
import { parseHttpDate } from '../core/http-date.js';
import { makeFolder } from '../core/make-folder.js';
import { command, option, phrase } from '../core/phrase.js';
import { newBatchId } from './batch.js';
import { checkInput, SameInput, shardText, type InputCheck, type Shard } from './check.js';
import {
  refuseImportedBefore,
  refuseMovedRecords,
  warnOfRecords,
  warnUnknownSinceQueued,
} from './import-checks.js';
import { givenSource, inputSource, scratchFolder } from './import-source.js';
import type { StopReading } from './stop-reading.js';
import type {
  ImportEvents,
  ImportPorts,
  ImportRequest,
  ImportTarget,
  Prepared,
} from './import-types.js';
import { INPUT_FORMATS } from './input-format.js';
import { JournalDraft } from './journal-draft.js';
import { expiredKeys, keyWindowError, resentKeys } from './key-window.js';
import { noValidRecords } from './record-problems.js';
import type { JournalHeader } from './record-states.js';
import { RejectedRecords } from './rejects.js';

/**
 * What an import does before it sends anything: reads and checks every record of its input
 * (digesting each into the draft of the run's journal, or comparing it with the journal of
 * the run it completes), reaches the service, and refuses what must not be sent (another
 * service, an input imported before, a named batch whose records moved, keys past their
 * window).
 */

function batchOf(request: ImportRequest, earlier: JournalHeader | undefined): string {
  if (earlier === undefined) return request.batchId ?? newBatchId();
  if (request.batchId !== undefined && request.batchId !== earlier.batch) {
    throw new UsageError(
      `the journaled run is batch ${earlier.batch}, not the batch id given, ${request.batchId}`,
      { hint: 'A resume continues the batch of its journal: leave the batch id out.' },
    );
  }
  return earlier.batch;
}

/** The shard a run sends: the one asked for, or the one its journal sent (a resume). */
function shardOf(request: ImportRequest, earlier: JournalHeader | undefined): Shard | undefined {
  const journaled = /^(\d+)\/(\d+)$/.exec(earlier?.shard ?? '');
  const shard = journaled
    ? { index: Number(journaled[1]), count: Number(journaled[2]) }
    : undefined;
  if (earlier !== undefined && request.shard !== undefined) {
    const same = shard !== undefined && shardText(shard) === shardText(request.shard);
    if (!same) {
      throw new UsageError(
        `the journaled run sent ${shard ? `shard ${shardText(shard)}` : 'the whole input'}, not shard ${shardText(request.shard)}; nothing was sent`,
        { hint: phrase`A resume sends what its journal's run sent: leave ${option('shard')} out.` },
      );
    }
  }
  return request.shard ?? shard;
}

/** The input a run reads, checked; its batch; and the service reached. */
export async function prepare(
  ports: ImportPorts,
  request: ImportRequest,
  events: ImportEvents,
  held: Prepared['held'],
  scratch: { remove(): Promise<void> }[],
  stop?: StopReading,
): Promise<Prepared> {
  await ports.checkTarget?.();
  const earlier = held?.header;
  const input = request.pets !== undefined ? '-' : (request.file ?? earlier?.input);
  if (input === undefined) {
    throw new UsageError('a batch needs an input, or the journal of a run to complete', {
      hint: phrase`Give the input, or ${option('resume')} JOURNAL.`,
    });
  }
  if (input === '-' && request.file === undefined && request.pets === undefined) {
    throw new UsageError('the run being resumed read standard input', {
      hint: phrase`Give the same input again: ... | ${command('pets import')} - ${option('resume', 'JOURNAL')}`,
    });
  }
  // A run that set invalid records aside is completed alike, asked again or not.
  const skipInvalid = request.skipInvalid === true || earlier?.skipInvalid === true;
  const batch = batchOf(request, earlier);
  const shard = shardOf(request, earlier);
  const namedBatch =
    request.batchId !== undefined || (earlier ? (earlier.namedBatch ?? true) : false);
  // Keys are made in the name the first run read its input by, wherever it is now.
  const named = earlier?.input ?? input;
  const inputName = earlier?.keyInput ?? (named === '-' ? '-' : basename(named));
  const journaled = (INPUT_FORMATS as readonly string[]).includes(earlier?.inputFormat ?? '')
    ? (earlier!.inputFormat as InputFormat)
    : undefined;
  const source =
    request.pets !== undefined
      ? givenSource(request.pets)
      : inputSource(input, readInputOf(ports, request, earlier), {
          given: request.inputFormat ?? journaled,
          name: input,
        });
  const draft = held === undefined ? await beginDraft(ports, request, scratch) : undefined;
  try {
    const run = { source, draft, input, batch, namedBatch, inputName, shard, skipInvalid };
    return await prepareFrom(ports, request, events, held, run, stop);
  } catch (error) {
    // Refused or stopped before the run: no draft journal, and no copy of standard input, left.
    draft?.discard();
    await source.close();
    throw error;
  }
}

/** What prepare settled before the input is read, for prepareFrom. */
type Settled = Pick<
  Prepared,
  'source' | 'draft' | 'input' | 'batch' | 'namedBatch' | 'inputName' | 'shard' | 'skipInvalid'
>;

/** Reads and checks the input, reaches the service, and refuses a repeat: the rest of prepare. */
async function prepareFrom(
  ports: ImportPorts,
  request: ImportRequest,
  events: ImportEvents,
  held: Prepared['held'],
  settled: Settled,
  stop: StopReading | undefined,
): Promise<Prepared> {
  const { source, draft, skipInvalid, shard } = settled;
  const same = held && new SameInput(held.journal, held.header, bootId());
  const rejects = new RejectedRecords(request.dryRun ? undefined : ports.openRejects);
  let check: InputCheck;
  try {
    const records = await source.read(undefined, stop);
    rejects.from(records);
    check = await checkInput(
      records,
      source.label,
      { skipInvalid, shard },
      {
        record: (record, position, digest) => {
          draft?.addInput(record, position, digest);
          same?.record(record, digest);
        },
        rejected: (record) => rejects.add(record),
      },
    );
  } catch (error) {
    await rejects.discard();
    throw error;
  }
  // Every record invalid: set aside (and written), and nothing to send.
  if (check.records === 0) {
    await rejects.close();
    if (check.rejected > 0) events.onRejected?.(check.rejected, request.dryRun);
    const written = ports.openRejects !== undefined && !request.dryRun;
    throw noValidRecords(source.label, check.problems, check.rejected, written);
  }
  let prepared: Prepared;
  try {
    prepared = await reachAndRefuse(ports, request, events, held, { ...settled, check, same });
  } catch (error) {
    // Refused (imported before, another service): the rejects file an earlier run wrote stays.
    await rejects.discard();
    throw error;
  }
  await rejects.close();
  if (check.rejected > 0) events.onRejected?.(check.rejected, request.dryRun);
  return prepared;
}

/** Reaches the service and refuses a run that must not go: the end of prepare. */
async function reachAndRefuse(
  ports: ImportPorts,
  request: ImportRequest,
  events: ImportEvents,
  held: Prepared['held'],
  read: Settled & { check: InputCheck; same: SameInput | undefined },
): Promise<Prepared> {
  const { check, same, source, shard, ...settled } = read;
  const service = await ports.connect();
  if (held === undefined) warnOfRecords(check, source.label, (message) => events.warn(message));
  else {
    warnUnknownSinceQueued(held.journal.counts(bootId()).unknownSinceQueued, (message) =>
      events.warn(message),
    );
    refuseOtherService(held.header, service.target);
    same!.end(check.records, check.digest);
  }
  const prepared: Prepared = { ...settled, source, shard, ports, request, check, service, held };
  await refuseRepeats(ports, prepared, events);
  await checkKeyWindow(prepared, events);
  // Last: held from here to the run's end (runImport releases it).
  if (!request.dryRun && request.again !== true && request.pets === undefined) {
    prepared.releaseInput = await holdInput(ports.journalsDir, {
      content: check.content,
      service: service.target.service,
      shard: shard && shardText(shard),
      source: source.label,
    });
  }
  return prepared;
}

/** The front end's reader of inputs; when resuming, a moved input is said as such. */
function readInputOf(
  ports: ImportPorts,
  request: ImportRequest,
  earlier: JournalHeader | undefined,
) {
  return async (input: string) => {
    const read = ports.readInput ?? (() => Promise.reject(new Error('no input reader')));
    try {
      return await read(input);
    } catch (error) {
      if (earlier === undefined || request.file !== undefined || !(error instanceof UsageError))
        throw error;
      throw new UsageError(`cannot read the input of the journaled run: ${error.message}`, {
        hint: 'If it moved, give its new path as FILE: its records are checked against the journal.',
      });
    }
  };
}

/** The draft of a new run's journal, beside where it will be (a dry run's in a scratch folder). */
async function beginDraft(
  ports: ImportPorts,
  request: ImportRequest,
  scratch: { remove(): Promise<void> }[],
): Promise<JournalDraft> {
  if (request.dryRun) {
    const folder = await scratchFolder();
    scratch.push(folder);
    return JournalDraft.begin(folder.path);
  }
  if (request.journal !== undefined) {
    if (
      request.file !== undefined &&
      request.file !== '-' &&
      resolve(request.journal) === resolve(request.file)
    ) {
      throw new UsageError(
        'the journal named is the input file; the journal needs a file of its own',
        {
          hint: phrase`Leave ${option('journal')} out (one is made in the journals folder), or give another path.`,
        },
      );
    }
    return JournalDraft.begin(dirname(resolve(request.journal)), resolve(request.journal));
  }
  await makeFolder(ports.journalsDir, 0o700);
  return JournalDraft.begin(ports.journalsDir);
}

function refuseOtherService(earlier: JournalHeader, target: ImportTarget): void {
  if (earlier.service === undefined || sameService(earlier.service, target.service)) return;
  throw new UsageError(
    `the journaled run sent to ${earlier.target} (${earlier.service}); this one would send to ${target.label} (${target.service}); nothing was sent`,
    {
      hint: phrase`Resume against the same service: give the ${option('profile')} or ${option('baseUrl')} the first run used.`,
    },
  );
}

/** A new batch of an input imported before, or a named batch whose records moved: refused. */
async function refuseRepeats(ports: ImportPorts, run: Prepared, events: ImportEvents) {
  const { request, draft } = run;
  if (run.held !== undefined || draft === undefined) return;
  if (run.namedBatch) {
    // The same input as an earlier run of the batch, under another name (a copy, stdin): its
    // records go with the keys that run made, so the service answers them from its requests.
    run.inputName =
      (await keyInputOfBatch(ports.journalsDir, {
        batch: run.batch,
        digest: run.check.digest,
        service: run.service.target.service,
      })) ?? run.inputName;
    await refuseMovedRecords(draft, ports.journalsDir, {
      batch: run.batch,
      inputName: run.inputName,
    });
  }
  // An agent's batch is named by its pets already: the same pets complete it.
  if (request.pets !== undefined || request.again === true) return;
  const imported = refuseImportedBefore(ports.journalsDir, {
    digest: run.check.digest,
    content: run.check.content,
    service: run.service.target.service,
    batch: run.batch,
    records: run.check.records,
    source: run.source.label,
  });
  if (!request.dryRun) return imported;
  // A dry run says what a run would refuse, and goes on.
  await imported.catch((error: unknown) => {
    if (!(error instanceof UsageError)) throw error;
    events.warn(`a run would be refused: ${error.message.replace(/; nothing was sent$/, '')}`);
  });
}

/**
 * Refuses, before anything is sent, a run that would send again keys the service may have
 * forgotten (see key-window.ts); a dry run says so instead. The service's clock is asked (one
 * GET) when this machine's finds none past: this machine's may have been set back.
 */
async function checkKeyWindow(run: Prepared, events: ImportEvents): Promise<void> {
  const { request, held } = run;
  if (held === undefined || !request.retryUnknown || request.keyWindow.ignore) return;
  const resent = () => resentKeys(held.journal.states(bootId()));
  const local = Date.now();
  let expired = expiredKeys(resent(), { local }, request.keyWindow);
  if (expired.count === 0 && held.journal.counts(bootId()).unknown > 0) {
    const service = parseHttpDate((await run.service.serviceDate()) ?? '');
    if (Number.isFinite(service))
      expired = expiredKeys(resent(), { local, service }, request.keyWindow);
  }
  if (expired.count === 0) return;
  const error = keyWindowError(expired, request.keyWindow);
  if (!request.dryRun) throw error;
  events.warn(error.message.replace(/; nothing was sent$/, ''));
}
