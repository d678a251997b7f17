import type { ClientSettings } from '../api/options.js';
import { MAX_RETRY_AFTER_MS } from '../api/retry.js';
import { parseDuration } from '../core/duration.js';
import { RETRIES, TIMEOUT_SECONDS } from '../core/contract.js';
import { UsageError } from '../core/errors.js';
import type { Env, IO } from '../core/io.js';
import { parseDecimal, parseWholeNumber } from '../core/parse-number.js';
import { colorEnabled } from '../output/color.js';
import { defaultFormat } from '../output/formats.js';
import {
  errorsAsJson,
  parseErrorFormat,
  resolveOutputFormat,
  type OutputFormat,
} from '../output/format.js';
import { GLOBAL_OPTIONS, type GlobalOptionKey } from './global-options.js';

/** Global options as commander hands them over (strings, unvalidated). */
export type RawGlobalOptions = Partial<Record<GlobalOptionKey, string | boolean>>;

/** Global options after validation and precedence (flag > environment > default). */
export interface Settings {
  profile: { name: string; source: 'flag' | 'env' } | undefined;
  baseUrl: string | undefined;
  quickstartUrl: string | undefined;
  output: OutputFormat;
  color: boolean;
  prettyJson: boolean;
  verbose: boolean;
  quiet: boolean;
  /** The client settings the user chooses; passed to every client whole. */
  http: HttpSettings;
  /** --query: a JMESPath expression over the JSON output (compiled when the run starts). */
  query: string | undefined;
  /** Whether long work draws a progress line on stderr. */
  progress: boolean;
  /** Errors and summaries on stderr as JSON objects (errorsAsJson), else as text. */
  errorsAsJson: boolean;
  /** A missing value may be asked for at the terminal (see mayPrompt). */
  prompts: boolean;
}

/** The part of a client's settings that comes from the command line. */
export type HttpSettings = Required<
  Pick<ClientSettings, 'timeoutSeconds' | 'retries' | 'maxWaitMs' | 'allowInsecureHttp'>
>;

/** The longest wait --max-wait allows: an hour (a job that can wait longer can run later). */
const MAX_WAIT_MOST_MS = 3_600_000;

/** --max-wait (or PETSTORE_MAX_WAIT): a duration from 0 to an hour; 30 s when absent. */
function maxWaitOf(text: string | undefined): number {
  if (text === undefined) return MAX_RETRY_AFTER_MS;
  const ms = parseDuration(text, MAX_WAIT_MOST_MS, { zero: true });
  if (ms === undefined) {
    throw new UsageError(`--max-wait must be a duration from 0s to 1h, got "${text}"`, {
      hint: 'For example --max-wait 2m (PETSTORE_MAX_WAIT=2m), or 0s to wait for nothing.',
    });
  }
  return ms;
}

function nonEmpty(value: string | boolean | undefined): string | undefined {
  return typeof value !== 'string' || value.trim() === '' ? undefined : value.trim();
}

/** A text option's value and where it came from: the flag, else its environment variable. */
function lookup(
  raw: RawGlobalOptions,
  env: Env,
  key: GlobalOptionKey,
): { value: string; source: 'flag' | 'env' } | undefined {
  const flag = nonEmpty(raw[key]);
  if (flag !== undefined) return { value: flag, source: 'flag' };
  const variable = GLOBAL_OPTIONS.find((option) => option.key === key)?.env;
  const fromEnv = variable === undefined ? undefined : nonEmpty(env[variable]);
  return fromEnv === undefined ? undefined : { value: fromEnv, source: 'env' };
}

function text(raw: RawGlobalOptions, key: GlobalOptionKey): string | undefined {
  const value = raw[key];
  return typeof value === 'string' ? value : undefined;
}

function outputFormat(raw: RawGlobalOptions, env: Env, io: IO): OutputFormat {
  const variable = GLOBAL_OPTIONS.find((option) => option.key === 'output')?.env ?? '';
  return resolveOutputFormat({
    flag: text(raw, 'output'),
    json: raw.json === true,
    env: env[variable],
    stdoutIsTTY: io.stdoutIsTTY,
  });
}

/**
 * Whether errors go to stderr as JSON (see errorsAsJson), known even when the options given
 * are themselves invalid: a bad --error-format counts as not given, a bad output format as
 * JSON if --json was given or stdout is not a terminal (the default a script gets).
 */
export function errorsInJson(raw: RawGlobalOptions, env: Env, io: IO): boolean {
  let forced;
  try {
    forced = parseErrorFormat(text(raw, 'errorFormat'), env.PETSTORE_ERROR_FORMAT);
  } catch {
    forced = undefined;
  }
  let output: OutputFormat;
  try {
    output = outputFormat(raw, env, io);
  } catch {
    output = raw.json === true ? 'json' : defaultFormat(io.stdoutIsTTY);
  }
  return errorsAsJson({ forced, output, stderrIsTTY: io.stderrIsTTY });
}

/** Whether a missing value may be asked for: stdin and stderr are a terminal, and no one said no. */
function mayPrompt(raw: RawGlobalOptions, env: Env, io: IO): boolean {
  if (raw.input === false) return false;
  if (env.PETSTORE_NO_INPUT !== undefined && env.PETSTORE_NO_INPUT !== '') return false;
  if (env.CI !== undefined && env.CI !== '' && env.CI !== 'false' && env.CI !== '0') return false;
  return io.stdinIsTTY && io.stderrIsTTY;
}

/**
 * --progress: auto draws on a terminal's stderr only (not TERM=dumb), and not when stdout is a
 * pipe: what reads it may print to the same terminal (`| cat`), where the line drawn in place
 * would erase what it printed. Never with --quiet, nor with errors as JSON.
 */
function progressWanted(
  when: string | undefined,
  quiet: boolean,
  io: IO,
  env: Env,
  jsonErrors: boolean,
): boolean {
  if (when !== undefined && !['auto', 'always', 'never'].includes(when)) {
    throw new UsageError(`--progress must be auto, always or never, got "${when}"`);
  }
  // Errors as JSON: stderr is one JSON object a line, where a line drawn in place has no room.
  if (quiet || when === 'never' || jsonErrors) return false;
  // A dumb terminal cannot erase a line: auto draws none there.
  return when === 'always' || (io.stderrIsTTY && env.TERM !== 'dumb' && io.stdoutIsPipe !== true);
}

export function resolveSettings(raw: RawGlobalOptions, env: Env, io: IO): Settings {
  const profile = lookup(raw, env, 'profile');
  const json = errorsAsJson({
    forced: parseErrorFormat(text(raw, 'errorFormat'), env.PETSTORE_ERROR_FORMAT),
    output: outputFormat(raw, env, io),
    stderrIsTTY: io.stderrIsTTY,
  });
  const timeout = text(raw, 'timeout');
  const retries = text(raw, 'retries');
  return {
    profile: profile && { name: profile.value, source: profile.source },
    baseUrl: lookup(raw, env, 'baseUrl')?.value,
    quickstartUrl: lookup(raw, env, 'quickstartUrl')?.value,
    output: outputFormat(raw, env, io),
    color: colorEnabled({ noColorFlag: raw.color === false, env, isTTY: io.stdoutIsTTY }),
    prettyJson: io.stdoutIsTTY,
    verbose: raw.verbose === true,
    quiet: raw.quiet === true,
    query: text(raw, 'query'),
    progress: progressWanted(text(raw, 'progress'), raw.quiet === true, io, env, json),
    errorsAsJson: json,
    prompts: mayPrompt(raw, env, io),
    http: {
      timeoutSeconds:
        timeout === undefined
          ? TIMEOUT_SECONDS.default
          : parseDecimal(timeout, '--timeout', TIMEOUT_SECONDS),
      retries:
        retries === undefined ? RETRIES.default : parseWholeNumber(retries, '--retries', RETRIES),
      maxWaitMs: maxWaitOf(lookup(raw, env, 'maxWait')?.value),
      allowInsecureHttp: raw.allowInsecureHttp === true,
    },
  };
}
