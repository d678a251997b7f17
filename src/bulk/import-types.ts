import type { InputFormat } from '../core/contract.js';
import type { NewPet, Pet } from '../core/interface.js';
import type { Hint } from '../core/phrase.js';
import type { SignalSource } from '../core/stop.js';
import type { InputCheck, Shard } from './check.js';
import type { ImportSource } from './import-source.js';
import type { JournalDraft } from './journal-draft.js';
import type { JournalStore } from './journal-store.js';
import type { KeyWindow } from './key-window.js';
import type { BulkCounts, EarlierRecord } from './ledger.js';
import type { RetryChoices } from './plan.js';
import type { JournalHeader } from './record-states.js';
import type { RejectsFile } from './rejects.js';
import type { BulkPorts } from './runner.js';

/** What an import is given and tells (import.ts runs it). */

/** What an import is asked to do (`pets import`, `--resume`, add_pets). */
export interface ImportRequest extends RetryChoices {
  /** FILE: the input; with --resume, defaults to the input the journal names. */
  file: string | undefined;
  /** The records themselves, each checked, instead of an input to read (an agent's call). */
  pets?: readonly NewPet[] | undefined;
  /** --resume: the path of the journal of the run to complete. */
  resume: string | undefined;
  /** --input-format: how to read the input; else as its name or its first line says. */
  inputFormat?: InputFormat | undefined;
  /** --journal: where a new run keeps its journal. */
  journal: string | undefined;
  /** --batch-id (or PETSTORE_BATCH_ID): the batch a new run's keys are made from. */
  batchId: string | undefined;
  /** --shard I/N: the part of the input this run sends. */
  shard?: Shard | undefined;
  /** --again: import an input imported before, as new pets. */
  again?: boolean | undefined;
  concurrency: number;
  failFast: boolean;
  dryRun: boolean;
  /** --print-all: print the pets earlier runs printed too. */
  printAll: boolean;
  /** --skip-invalid: send the good records, set the bad ones aside (else none is sent). */
  skipInvalid?: boolean | undefined;
  /** --key-window (PETSTORE_KEY_WINDOW) and --ignore-key-window. */
  keyWindow: KeyWindow;
  /** Who asks, when not the command line (an agent's client): kept in the journal. */
  client?: string | undefined;
}

/** Where an import sends, and how the person or program driving it reaches it again. */
export interface ImportTarget {
  /** "profile staging", or the URL given. */
  label: string;
  /** The service itself, as a journal names it (a resume must reach the same one). */
  service: string;
}

/** Creates one pet for a record of a batch; `onServiceDate` hears the service's clock. */
export type ImportCreatePet = (
  pet: NewPet,
  options: Parameters<BulkPorts['createPet']>[1] & {
    batch: string;
    onServiceDate(date: string): void;
  },
) => Promise<Pet>;

/** The service an import sends to, and how it is reached; `Preview`, a request as shown. */
export interface ImportService<Preview = unknown> {
  createPet: ImportCreatePet;
  /** The request a record would go out as (a dry run). */
  preview(pet: NewPet, idempotencyKey: string): Preview;
  /** The service's clock, by one read (its Date header), if it gives one. */
  serviceDate(): Promise<string | undefined>;
  target: ImportTarget;
  /** The W3C trace the run's requests carry, kept with the run in its journal. */
  traceId?: string | undefined;
}

/** What an import uses: the service, the files it keeps, and the process it runs in. */
export interface ImportPorts<Preview = unknown> {
  /** Reaches the service: once the input is read and checked (a bad input is refused as such). */
  connect(): Promise<ImportService<Preview>>;
  /** Refuses a target that cannot be sent to (no profile, no key) before the input is read. */
  checkTarget?(): Promise<void>;
  /** The input's bytes from its start: a path, or `-` for the front end's standard input. */
  readInput?: ((input: string) => Promise<AsyncIterable<Uint8Array>>) | undefined;
  /** Where records set aside go (--rejects), opened at the first; none: they are counted. */
  openRejects?: (() => Promise<RejectsFile>) | undefined;
  /** Where new runs keep their journals, and where earlier imports are looked for. */
  journalsDir: string;
  /** Ctrl-C and SIGTERM: a first lets the writes in flight finish, a second stops at once. */
  signals: SignalSource;
  /** The import is called off (an agent's cancelled call): as a first signal, without one. */
  cancel?: AbortSignal | undefined;
  /** The command (or call) that completes the run from its journal, as its driver words it. */
  resumeCommand(journal: string, input: string): string;
}

/** A record that did not end created: its 1-based position, its name, a hint. */
export type RecordReport = Parameters<BulkPorts['reportRecord']>[1];

/** What an import tells its front end as it goes. */
export interface ImportEvents<Preview = unknown> {
  /** The run is journaled: where, how to complete it, its batch and how many records it sends. */
  onJournal(run: { journal: string; resume: string; batch: string; toSend: number }): void;
  /** Each created pet's line, as it is confirmed (NDJSON, CSV...); undefined: a table at the end. */
  rows: BulkPorts['rows'];
  /** The pets for a table, once the run ended (`more`: not shown); resolves true once they left whole. */
  printTable(pets: Pet[], more: number): Promise<boolean>;
  /** A record that failed, or whose outcome is unknown; `note`, a hint about it alone. */
  reportRecord(error: unknown, record: RecordReport, note?: Hint): void;
  /** A line of the run's own (the note of a second signal). */
  say(line: string): void;
  /** Each record settled, for a progress line. */
  onSettled: NonNullable<BulkPorts['onSettled']>;
  /** Stopped at once (a second signal): the counts so far, before the error. */
  onAbandoned(counts: BulkCounts): void;
  /** A dry run's request for a record: nothing is sent. Resolves once it may go on. */
  onDryRun(record: number, request: Preview): void | Promise<void>;
  /** Something the person should know that does not stop the run. */
  warn(message: Hint): void;
  /** Records set aside (--skip-invalid): how many, and whether written (a dry run writes none). */
  onRejected?(count: number, dryRun: boolean): void;
  /** Why stdout failed, when it did (its output is then incomplete). */
  stdoutFailure(): NodeJS.ErrnoException | undefined;
}

/** What a dry run would have sent: nothing was. */
export interface DryRunOutcome {
  kind: 'dry run';
  requests: number;
  batch: string;
}

/** What an import did, for its front end to report. */
export interface ImportOutcome {
  kind: 'sent';
  journal: string;
  batch: string;
  /** How many records its earlier runs printed that this one did not print again. */
  printedEarlier: number;
  /** Records earlier runs left failed or unknown that this run passed (the first of them). */
  earlier: readonly EarlierRecord[];
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

/** What a run knows once its input is checked and its service reached. */
export interface Prepared {
  ports: ImportPorts;
  request: ImportRequest;
  source: ImportSource;
  input: string;
  check: InputCheck;
  batch: string;
  namedBatch: boolean;
  inputName: string;
  shard: Shard | undefined;
  skipInvalid: boolean;
  service: ImportService;
  /** The resumed journal and its header (none for a new run). */
  held: { journal: JournalStore; header: JournalHeader } | undefined;
  draft: JournalDraft | undefined;
  /** Lets go of the input (holdInput), once the run ends. */
  releaseInput?: (() => Promise<void>) | undefined;
}
