import { command, option, phrase } from '../../core/phrase.js';
import { basename } from 'node:path';
import { newBatchId, recordKey } from '../../bulk/batch.js';
import type { JournalContents } from '../../bulk/record-states.js';
import type { KeyWindow } from '../../bulk/key-window.js';
import { planRun, type Plan, type RetryChoices } from '../../bulk/plan.js';
import { INPUT_FORMATS, readPetRecords, type InputFormat } from '../../bulk/input-format.js';
import {
  digestInput,
  givenRecords,
  type InputDigests,
  type PetRecords,
} from '../../bulk/records.js';
import { rejectsText } from '../../bulk/rejects.js';
import { UsageError } from '../../core/errors.js';
import { PET_STATUSES, type NewPet } from '../../core/interface.js';

/** What a batch is asked to do (`pets import` and `--resume`). */
export interface AddBatchRequest extends RetryChoices {
  /** FILE: the input; with --resume, defaults to the input the journal names. */
  file: string | undefined;
  /**
   * The records themselves, each checked, instead of an input to read (an agent's call):
   * keyed as a standard input would be, so a call made again completes its batch.
   */
  pets?: readonly NewPet[] | undefined;
  /** --resume: the journal of the run to complete. */
  resume: string | undefined;
  /** --input-format: how to read the input; else as its name or its first line says. */
  inputFormat?: InputFormat | undefined;
  /** --journal: where a new run keeps its journal. */
  journal: string | undefined;
  /** --batch-id (or PETSTORE_BATCH_ID): the batch a new run's keys are made from. */
  batchId: string | undefined;
  concurrency: number;
  failFast: boolean;
  dryRun: boolean;
  /** --print-all: print the pets earlier runs printed too. */
  printAll: boolean;
  /** --skip-invalid: send the good records, set the bad ones aside (else none is sent). */
  skipInvalid?: boolean | undefined;
  /** --key-window (PETSTORE_KEY_WINDOW) and --ignore-key-window. */
  keyWindow: KeyWindow;
}

/** What a bulk add reads and decides before it sends anything: its input, batch and plan. */
export interface Prepared {
  input: string;
  records: PetRecords;
  /** The format the input was read in, when it was given, named or seen (else JSON of either kind). */
  inputFormat: InputFormat | undefined;
  digests: InputDigests;
  batch: string;
  namedBatch: boolean;
  plan: Plan;
  earlier: JournalContents | undefined;
  /** The key of a record's first attempt (1-based): what its place in the input sends. */
  firstKey: (record: number) => string;
  /** Invalid records are set aside (asked now, or by the run this one completes). */
  skipInvalid: boolean;
}

function batchOf(options: AddBatchRequest, earlier: JournalContents | undefined): string {
  if (earlier === undefined) return options.batchId ?? newBatchId();
  if (options.batchId !== undefined && options.batchId !== earlier.batch) {
    throw new UsageError(
      `the journaled run is batch ${earlier.batch}, not the batch id given, ${options.batchId}`,
      { hint: 'A resume continues the batch of its journal: leave the batch id out.' },
    );
  }
  return earlier.batch;
}

/** The format a journaled run read its input in, when it says one this version knows. */
function journaledFormat(earlier: JournalContents | undefined): InputFormat | undefined {
  const format = earlier?.inputFormat;
  return (INPUT_FORMATS as readonly string[]).includes(format ?? '')
    ? (format as InputFormat)
    : undefined;
}

/** The records of the input a run reads: the file, or what the front end was given. */
async function readRecords(
  readInput: (input: string) => Promise<string>,
  options: AddBatchRequest,
  run: { input: string; earlier: JournalContents | undefined; skipInvalid: boolean },
): Promise<{ records: PetRecords; format: InputFormat | undefined }> {
  const { input, earlier } = run;
  const source = input === '-' ? 'standard input' : input;
  const text = await readInput(input).catch((error: unknown) => {
    if (options.file !== undefined || !(error instanceof UsageError)) throw error;
    throw new UsageError(`cannot read the input of the journaled run: ${error.message}`, {
      hint: 'If it moved, give its new path as FILE: its records are checked against the journal.',
    });
  });
  return readPetRecords(text, source, {
    given: options.inputFormat ?? journaledFormat(earlier),
    name: input,
    skipInvalid: run.skipInvalid,
  });
}

/**
 * Reads the input (through `readInput`: a file, or `-` for what the front end was given),
 * checks every record against the journal of the run it completes (`earlier`, read by the
 * caller), and plans what to send.
 */
export async function prepare(
  readInput: (input: string) => Promise<string>,
  options: AddBatchRequest,
  earlier: JournalContents | undefined,
): Promise<Prepared> {
  const input = options.pets !== undefined ? '-' : (options.file ?? earlier?.input);
  if (input === undefined) {
    throw new UsageError('a batch needs an input, or the journal of a run to complete', {
      hint: phrase`Give the input, or ${option('resume')} JOURNAL.`,
    });
  }
  if (input === '-' && options.file === undefined && options.pets === undefined) {
    throw new UsageError('the run being resumed read standard input', {
      hint: phrase`Give the same input again: ... | ${command('pets import')} - ${option('resume', 'JOURNAL')}`,
    });
  }
  // A run that set invalid records aside is completed alike, asked again or not.
  const skipInvalid = options.skipInvalid === true || earlier?.skipInvalid === true;
  const { records, format } =
    options.pets === undefined
      ? await readRecords(readInput, options, { input, earlier, skipInvalid })
      : { records: givenRecords(options.pets), format: undefined };
  const digests = digestInput(records);
  const batch = batchOf(options, earlier);
  const namedBatch =
    options.batchId !== undefined || (earlier ? (earlier.namedBatch ?? true) : false);
  // Keys are made in the name the first run read its input by, wherever it is now.
  const named = earlier?.input ?? input;
  const inputName = named === '-' ? '-' : basename(named);
  // By the record's place in the input, bad records counted: a row fixed in place and sent
  // again moves no other row's key.
  const keyOf = (record: number, attempt?: number) =>
    recordKey(batch, inputName, records.inputPosition(record - 1), attempt);
  const plan = planRun({ records, digests, recordKey: keyOf, namedBatch }, earlier, options);
  const firstKey = (record: number) => keyOf(record);
  return {
    input,
    records,
    inputFormat: format,
    digests,
    batch,
    namedBatch,
    plan,
    earlier,
    firstKey,
    skipInvalid,
  };
}

/**
 * Says which records the journal counts unknown only because it cannot prove they were never
 * sent (queued, no line of their sending), and why; a resume sends them with --retry-unknown.
 */
export function warnUnknownSinceQueued(
  prepared: Prepared,
  events: { warn(message: string): void },
): void {
  const widened = prepared.earlier?.unknownSinceQueued;
  if (widened === undefined) return;
  const why = {
    noBoot:
      "This machine's boot could not be told (no boot id, no time since boot), so a power loss since they were queued cannot be ruled out, and a sending not yet on disk may have been lost",
    otherBoot:
      'The machine has booted since they were queued, and a sending not yet on disk may have been lost',
  };
  for (const kind of ['noBoot', 'otherBoot'] as const) {
    const records = widened[kind];
    if (records.length === 0) continue;
    const one = records.length === 1;
    events.warn(
      `${recordsNamed(records)} queued and never journaled as sent: ${one ? 'its' : 'their'} outcome cannot be known, so ${one ? 'it counts' : 'they count'} as unknown. ${why[kind]}`,
    );
  }
}

/** "record 3", "records 3, 5 and 9", or the first ten and how many more. */
function recordsNamed(records: number[]): string {
  if (records.length === 1) return `record ${records[0]}`;
  const shown = records.slice(0, 10);
  const more = records.length - shown.length;
  const list =
    more > 0
      ? `${shown.join(', ')} and ${more} more`
      : `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}`;
  return `records ${list}`;
}

/**
 * What a new run says once of its records as read: ids it ignores (a listing read back), and
 * statuses sent in the interface's letter case.
 */
export function warnOfRecords(
  records: PetRecords,
  input: string,
  warn: (message: string) => void,
): void {
  const ids = records.ignoredIds;
  if (ids > 0) {
    const which =
      ids === records.count ? 'every record' : ids === 1 ? '1 record' : `${ids} records`;
    const carry = ids === 1 || ids === records.count ? 'carries' : 'carry';
    warn(
      `${which} of ${input === '-' ? 'standard input' : input} ${carry} an id, which is ignored: ${ids === 1 ? 'it is created as a new pet' : 'they are created as new pets'}, and the service gives each its own id.`,
    );
  }
  const cased = records.statusCaseChanged;
  if (cased > 0) {
    warn(
      `${cased === 1 ? '1 record gives its' : `${cased} records give their`} status in another letter case (such as Available): sent as ${PET_STATUSES.join(', ')} are spelled.`,
    );
  }
}

/** Hands the records set aside (--skip-invalid) to the front end, as a file of the input's format. */
export async function setAside(
  prepared: Prepared,
  dryRun: boolean,
  events: { onRejected?(count: number, rejects: string, dryRun: boolean): Promise<void> },
): Promise<void> {
  const { rejected } = prepared.records;
  if (rejected.length === 0) return;
  await events.onRejected?.(
    rejected.length,
    rejectsText(prepared.records, prepared.inputFormat),
    dryRun,
  );
}
