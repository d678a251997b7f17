import type { Hint } from '../../core/phrase.js';
import type { PetstoreClient, RequestPreview } from '../../api/client.js';
import type { BulkCounts } from '../../bulk/ledger.js';
import type { EarlierOutcomes } from '../../bulk/plan.js';
import type { BulkPorts } from '../../bulk/runner.js';
import type { Pet } from '../../core/interface.js';
import type { SignalSource } from '../../core/stop.js';

/** What a batch of new pets is given and tells (add-batch.ts runs it). */

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
  /**
   * Refuses a target that cannot be sent to (no such profile, no key) before the input is
   * read, which for a large input takes seconds; starts nothing.
   */
  checkTarget?(): Promise<void>;
  /** Reads the input: a path, or `-` for the front end's standard input (none: pets given). */
  readInput?(input: string): Promise<string>;
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
export type Connected = Omit<AddBatchDeps, 'connect'> & BatchService;

/** A record that did not end created: its 1-based position, its name, a hint. */
export type RecordReport = Parameters<BulkPorts['reportRecord']>[1];

/** What a batch tells its front end as it goes. */
export interface AddBatchEvents {
  /** The run is journaled: where, how to complete it, its batch and how many records it sends. */
  onJournal(run: { journal: string; resume: string; batch: string; toSend: number }): void;
  /** Each created pet's line, as it is confirmed (NDJSON, CSV...); undefined: a table at the end. */
  rows: BulkPorts['rows'];
  /** The pets for a table, once the run ended; resolves true once they left whole. */
  printTable(pets: Pet[]): Promise<boolean>;
  /** A record that failed, or whose outcome is unknown; `note`, a hint about it alone. */
  reportRecord(error: unknown, record: RecordReport, note?: Hint): void;
  /** A line of the run's own (the note of a second signal). */
  say(line: string): void;
  /** Each record settled, for a progress line. */
  onSettled: NonNullable<BulkPorts['onSettled']>;
  /** Stopped at once (a second signal): the counts so far, before the error. */
  onAbandoned(counts: BulkCounts): void;
  /** A dry run's request for a record: nothing is sent. */
  onDryRun(record: number, request: RequestPreview): void;
  /** Something the person should know that does not stop the run. */
  warn(message: Hint): void;
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
