import type { DeprecationNotice, PetstoreClient } from '../api/client.js';
import type { ClientFactory } from '../api/create-client.js';
import type { Transport } from '../api/http.js';
import { proxyPasswords, proxySettingsFromEnv } from '../api/proxy-settings.js';
import type { ConfigStore } from '../config/store.js';
import { helperKeyring, noKeyring, rememberingKeyring, type Keyring } from '../config/keyring.js';
import { configDir } from '../config/paths.js';
import { apiKeyProblem } from '../core/api-key.js';
import { MissingCredentialError, UsageError } from '../core/errors.js';
import type { Env, IO } from '../core/io.js';
import { unfindableBecause, type SecretRedactor } from '../core/redaction/index.js';
import { stringifyJson } from '../core/json.js';
import { sanitizeLine } from '../core/sanitize.js';
import { credentialSecrets, URL_VARIABLES } from '../core/redaction/index.js';
import { pickColumns } from '../output/columns.js';
import { renderData, type Column } from '../output/render.js';
import { Progress } from '../output/progress.js';
import { QueryFailedError, type Query } from '../output/query.js';
import { formatSpec } from '../output/formats.js';
import { openRows, type RowsOptions, type RowWriter } from '../output/rows.js';
import type { HttpSettings, Settings } from './settings.js';
import { missingKeyProblem, missingUrlProblem, unusableKeyError, type Target } from './target.js';

export type { Keyring } from '../config/keyring.js';

/** Which part of the data to output. */
export interface DataView {
  /** --fields: these fields only, in this order. */
  fields?: readonly string[] | undefined;
}

/** What every run function receives: streams, environment, settings and lazy services. */
export interface Context {
  readonly io: IO;
  readonly env: Env;
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
  /** The service to talk to (profile, URLs, key), resolved on first use. */
  target(): Promise<Target>;
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
  /** Keeps a secret (a key typed at a prompt) out of everything the run prints. */
  protectSecret(secret: string, options?: { hidden?: boolean }): void;
  /**
   * A progress line on stderr for long work: drawn only when --progress (auto: a terminal)
   * wants it. `interruptible`: a read that Ctrl-C ends at once (the line is erased first).
   */
  progressLine(options?: { interruptible?: boolean }): Progress;
  /** Writes a value as JSON on stdout (a request `--dry-run` would have sent, a body). */
  printRequest(request: unknown, options?: { oneLine?: boolean }): void;
  /**
   * Says the command changed something (a write was answered): from now on, an output --query
   * fails on is printed whole, with a warning, rather than lost behind a usage error.
   */
  tookEffect(): void;
  /** The text with every secret the run knows masked: for what goes to files, not streams. */
  redact(text: string): string;
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
}

/** A row of output written as it comes, through --query: its result's line, or none. */
function queriedLine(query: Query, row: unknown): string {
  const result = query(row);
  return result === null || result === undefined ? '' : stringifyJson(result) + '\n';
}

export const USER_AGENT = `petstore-cli/${__PETSTORE_VERSION__} node/${process.versions.node} ${process.platform}`;

function deprecationWarning(notice: DeprecationNotice): string {
  const sunset = notice.sunset ? `; it will be removed on ${notice.sunset}` : '';
  return `${notice.method} ${sanitizeLine(notice.path)} is deprecated by the service${sanitizeLine(sunset)}`;
}

/**
 * --query as the run applies it: after the command took effect, an output the expression
 * fails on is printed whole, and a warning says why; before, the failure ends the run (exit 2).
 */
function shapingQuery(
  query: Query | undefined,
  state: { tookEffect: boolean },
  warn: (message: string) => void,
): Query | undefined {
  if (!query) return undefined;
  let warned = false;
  return (value) => {
    try {
      return query(value);
    } catch (error) {
      if (!(error instanceof QueryFailedError) || !state.tookEffect) throw error;
      if (!warned) {
        warned = true;
        warn(
          `${error.message.replace(/\.$/, '')}: the command took effect, so its output is printed whole`,
        );
      }
      return value;
    }
  };
}

export function createContext(deps: ContextDeps): Context {
  const { io, env, settings, redactor } = deps;
  const effect = { tookEffect: false };
  const query = shapingQuery(deps.query, effect, (message) =>
    io.stderr.write(`warning: ${sanitizeLine(message)}\n`),
  );
  redactor.add(env.PETSTORE_API_KEY?.trim());
  // Before anything can say a URL or proxy value is wrong: no message may show its password,
  // whatever the value's shape.
  const urls = [
    ...URL_VARIABLES.map((name) => env[name]),
    settings.baseUrl,
    settings.quickstartUrl,
  ];
  for (const url of urls) {
    for (const secret of credentialSecrets(url ?? '')) redactor.add(secret, { hidden: true });
  }
  let target: Promise<Target> | undefined;
  let client: Promise<PetstoreClient> | undefined;
  let config: Promise<ConfigStore> | undefined;
  let keyring = deps.keyring && rememberingKeyring(deps.keyring);
  const cleanups: (() => Promise<void>)[] = [];
  let deprecationWarned = false;

  const rowsOptions = (view: DataView): RowsOptions => ({
    format: settings.output,
    color: settings.color,
    pretty: settings.prettyJson,
    width: io.stdoutColumns,
    fields: view.fields,
    write: (text) => io.stdout.write(text),
    query,
  });

  const ctx: Context = {
    io,
    env,
    settings,
    // Notices often quote the service (a pet's name): one clean line each, whatever it sent.
    notice(message) {
      if (!settings.quiet) io.stderr.write(`${sanitizeLine(message)}\n`);
    },
    warn(message) {
      if (!settings.quiet) io.stderr.write(`warning: ${sanitizeLine(message)}\n`);
    },
    warnDeprecated(message) {
      if (deprecationWarned) return;
      deprecationWarned = true;
      ctx.warn(message);
    },
    render(data, columns, view = {}) {
      return renderData(data, columns, rowsOptions(view));
    },
    openRows(columns, view = {}) {
      return openRows(pickColumns(columns, view.fields), rowsOptions(view));
    },
    lineRows(columns) {
      // A table waits for the end; with --query each row is shaped as JSON whatever -o says.
      const lineForm = formatSpec(settings.output).lines;
      let lines: { header: string; line: (row: never) => string };
      if (query) lines = { header: '', line: (row: unknown) => queriedLine(query, row) };
      else if (lineForm === undefined) return undefined;
      else lines = lineForm(columns);
      const { header, line } = lines;
      return {
        header,
        line,
        write: (text) => io.stdout.writeSettled(text),
      };
    },
    target() {
      target ??= deps.resolveTarget(ctx).then((resolved) => {
        if (resolved.close) cleanups.push(resolved.close);
        return resolved;
      });
      return target;
    },
    client() {
      client ??= ctx.target().then((resolved) => ctx.clientFor(resolved));
      return client;
    },
    async clientFor(resolved, http = {}, { warnDeprecations = true } = {}) {
      const { apiKey } = resolved;
      if (apiKey === undefined) {
        const noUrl = resolved.baseUrl === undefined && resolved.quickstartUrl === undefined;
        const { message, hint } = noUrl ? missingUrlProblem(resolved) : missingKeyProblem(resolved);
        throw noUrl
          ? new UsageError(message, { hint })
          : new MissingCredentialError(message, { hint });
      }
      redactor.add(apiKey);
      const keyProblem = apiKeyProblem(apiKey);
      if (keyProblem) throw unusableKeyError(resolved, keyProblem);
      const unfindable = unfindableBecause(apiKey);
      if (unfindable) {
        ctx.warn(
          `the API key cannot be told from data (${unfindable}), so it is not masked where a service echoes it back`,
        );
      }
      const proxy = proxySettingsFromEnv(env);
      // A proxy's password is a secret of the run like the key: masked wherever it shows.
      for (const secret of proxyPasswords(proxy)) redactor.add(secret, { hidden: true });
      const created = await deps.createClient(
        { ...resolved, apiKey },
        {
          ...settings.http,
          ...http,
          userAgent: USER_AGENT,
          transport: deps.transport,
          proxy,
          redact: (text) => redactor.redact(text),
          log: settings.verbose ? (line) => io.stderr.write(`${sanitizeLine(line)}\n`) : undefined,
          // A command that checks the notices itself (smoke) reports them as its results.
          onDeprecation: warnDeprecations
            ? (notice) => ctx.warnDeprecated(deprecationWarning(notice))
            : undefined,
        },
      );
      cleanups.unshift(() => created.close());
      return created;
    },
    config() {
      config ??= import('../config/store.js').then(
        ({ ConfigStore }) =>
          new ConfigStore(
            configDir(env),
            (message) => ctx.warn(message),
            (keys, passwords) => {
              keys.forEach((key) => redactor.add(key));
              passwords.forEach((password) => redactor.add(password, { hidden: true }));
            },
          ),
      );
      return config;
    },
    keyring() {
      keyring ??= rememberingKeyring(
        deps.selfCommand ? helperKeyring(deps.selfCommand) : noKeyring(),
      );
      return keyring;
    },
    protectSecret(secret, options) {
      redactor.add(secret, options);
    },
    redact: (text) => redactor.redact(text),
    progressLine(options = {}) {
      const progress = new Progress(settings.progress ? io.setStatus : undefined);
      if (!settings.progress || !options.interruptible) return progress;
      // A read ends at once on a signal, as the default would: the line is erased first.
      const release = io.onSignal((signal) => {
        progress.done();
        release();
        io.raise?.(signal);
      });
      progress.onDone(release);
      return progress;
    },
    printRequest(request, options = {}) {
      const value = query ? query(request) : request;
      if (options.oneLine && value === null) return;
      io.stdout.write(stringifyJson(value, settings.prettyJson && !options.oneLine) + '\n');
    },
    tookEffect() {
      effect.tookEffect = true;
    },
    async close() {
      for (const cleanup of cleanups.splice(0)) await cleanup();
    },
  };
  return ctx;
}
