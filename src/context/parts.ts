import type { HistoryVia, RefusedWrite } from '../history/entry.js';
import type { PetstoreClient } from '../api/client.js';
import type { ClientFactory } from '../api/create-client.js';
import type { Transport } from '../api/http.js';
import type { Keyring } from '../config/keyring.js';
import type { ConfigStore } from '../config/store.js';
import type { Env, IO } from '../core/io.js';
import type { SecretRedactor } from '../core/redaction/index.js';
import type { Progress } from '../output/progress.js';
import type { Query } from '../output/query.js';
import type { Column } from '../output/render.js';
import type { RowWriter } from '../output/rows.js';
import type { HttpSettings, Settings } from './settings.js';
import type { Target } from './target.js';

/**
 * The parts of a run's context, by role, and what main makes them from. Types only: the
 * builders (run-output.ts, run-services.ts, context.ts) all read them from here.
 */

/** Which part of the data to output. */
export interface DataView {
  /** --fields: these fields only, in this order. */
  fields?: readonly string[] | undefined;
}

/**
 * What a run writes: data on stdout in the chosen format, and words for whoever reads stderr.
 * A verb that only prints takes this part alone.
 */
export interface RunOutput {
  readonly io: IO;
  readonly settings: Settings;
  /** A status line on stderr; suppressed by --quiet. */
  notice(message: string): void;
  /** A warning on stderr; suppressed by --quiet. */
  warn(message: string): void;
  /** A deprecation warning, at most once per run whatever its source. */
  warnDeprecated(message: string): void;
  /** Data on stdout in the chosen output format (only the --fields given, when given). */
  render<Row>(data: Row | Row[], columns: Column<Row>[], view?: DataView): Promise<void>;
  /** Rows on stdout as they arrive (a page at a time), in the chosen output format. */
  openRows<Row>(columns: Column<Row>[], view?: DataView): Promise<RowWriter<Row>>;
  /**
   * One line per row on stdout, in the chosen format (JSON as JSON lines), for output written
   * and accounted for row by row; undefined when the format is a table.
   */
  lineRows<Row>(columns: Column<Row>[]): LineRows<Row> | undefined;
  /**
   * A progress line on stderr for long work: drawn only when --progress (auto: a terminal)
   * wants it. `interruptible`: a read that Ctrl-C ends at once (the line is erased first).
   */
  progressLine(options?: { interruptible?: boolean }): Progress;
  /** Writes a value as JSON on stdout (a request `--dry-run` would have sent, a body). */
  printRequest(request: unknown, options?: { oneLine?: boolean }): void;
}

/** What a run talks to: the service, the profiles and keys, the keyring. Each made on first use. */
export interface RunServices {
  readonly env: Env;
  /** How to run this program again (node and bin/petstore.js, or the single executable). */
  readonly selfCommand: readonly string[] | undefined;
  /** The service to talk to (profile, URLs, key), resolved on first use. */
  target(): Promise<Target>;
  /**
   * Throws what client() would for a profile that does not exist or a target without a key,
   * starting nothing (not the embedded sandbox): said before a long input is read.
   */
  checkTarget(): Promise<void>;
  /** The API client for the target, created on first use. */
  client(): Promise<PetstoreClient>;
  /** A separate client for another target (e.g. a key being verified); closed with the run. */
  clientFor(
    target: Target,
    http?: Partial<HttpSettings>,
    options?: { warnDeprecations?: boolean },
  ): Promise<PetstoreClient>;
  /** The profiles and keys store, loaded on first use. */
  config(): Promise<ConfigStore>;
  /** The OS keyring, reached through a child process with a deadline. */
  keyring(): Keyring;
  /**
   * Who this run's writes are recorded as (the history of writes): the command line, unless a
   * front end says otherwise (petstore mcp: the agent's client, known once it initialized).
   */
  recordWritesAs(source: WriteSource): void;
  /** Records a write a front end refused before sending it (an agent's, by the write policy). */
  recordRefusal(refusal: RefusedWrite): void;
}

/** Who sends a run's writes, as the history keeps it. */
export interface WriteSource {
  via: HistoryVia;
  /** The agent's client ("claude-code 1.2.0"), asked when a write is recorded. */
  client?: (() => string | undefined) | undefined;
}

/** What a run records about itself: what it did, the secrets it learned, what it must release. */
export interface RunState {
  /**
   * Says the command changed something (a write was answered): from now on, an output --query
   * fails on is printed whole, with a warning, rather than lost behind a usage error.
   */
  tookEffect(): void;
  /** Keeps a secret (a key typed at a prompt) out of everything the run prints. */
  protectSecret(secret: string, options?: { hidden?: boolean }): void;
  /** The text with every secret the run knows masked: for what goes to files, not streams. */
  redact(text: string): string;
}

/**
 * The whole of what a run has, made once by main, which alone closes it. A verb's run function
 * is typed with the parts it uses (RunOutput, RunServices, RunState), never with this whole
 * (the lint says so).
 */
export interface Context extends RunOutput, RunServices, RunState {
  /** Releases what the run opened (sockets, an embedded sandbox). */
  close(): Promise<void>;
}

export interface LineRows<Row> {
  /** What precedes the first row (a CSV header), or ''. */
  header: string;
  line(row: Row): string;
  /** Writes to stdout; resolves once the text left the process, with how many bytes did. */
  write(text: string): Promise<number>;
}

export interface ContextDeps {
  io: IO;
  env: Env;
  settings: Settings;
  resolveTarget: (ctx: Context) => Promise<Target>;
  /** Makes the API clients; loaded lazily by main so that --help never loads the HTTP stack. */
  createClient: ClientFactory;
  /** Carries every client's requests instead of undici (tests give a recording fake). */
  transport?: Transport | undefined;
  /** Masks every key the run learns of in what `io` writes (main wraps io with it). */
  redactor: SecretRedactor;
  /** --query, compiled: applied to every JSON the run prints. */
  query?: Query | undefined;
  /** The OS keyring (tests give fakes); default: `selfCommand` run again as `__keyring`. */
  keyring?: Keyring | undefined;
  /** How to run this program again (node and bin/petstore.js); absent: no keyring. */
  selfCommand?: readonly string[] | undefined;
  /** The process ends with the run (bin/petstore.js): see ClientSettings.endsWithProcess. */
  endsWithProcess?: boolean | undefined;
}
