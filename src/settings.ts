import { UsageError } from './errors.js';
import type { Env, IO } from './io.js';
import { colorEnabled } from './output/color.js';
import { resolveOutputFormat, type OutputFormat } from './output/format.js';

/** Global options as commander hands them over (strings, unvalidated). */
export interface RawGlobalOptions {
  profile?: string;
  baseUrl?: string;
  quickstartUrl?: string;
  output?: string;
  json?: boolean;
  color?: boolean;
  verbose?: boolean;
  quiet?: boolean;
  timeout?: string;
  retries?: string;
  allowInsecureHttp?: boolean;
}

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
  timeoutSeconds: number;
  retries: number;
  allowInsecureHttp: boolean;
}

const DEFAULT_TIMEOUT_SECONDS = 30;
const DEFAULT_RETRIES = 2;
const MAX_RETRIES = 10;

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function parseTimeout(text: string | undefined): number {
  if (text === undefined) return DEFAULT_TIMEOUT_SECONDS;
  const seconds = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text.trim()) || !(seconds > 0) || seconds > 3600) {
    throw new UsageError(`--timeout must be a number of seconds from 0.001 to 3600, got "${text}"`);
  }
  return seconds;
}

function parseRetries(text: string | undefined): number {
  if (text === undefined) return DEFAULT_RETRIES;
  if (!/^\d+$/.test(text.trim()) || Number(text) > MAX_RETRIES) {
    throw new UsageError(
      `--retries must be a whole number from 0 to ${MAX_RETRIES}, got "${text}"`,
    );
  }
  return Number(text);
}

function outputFormat(raw: RawGlobalOptions, env: Env, io: IO): OutputFormat {
  return resolveOutputFormat({
    flag: raw.output,
    json: raw.json === true,
    env: env.PETSTORE_OUTPUT,
    stdoutIsTTY: io.stdoutIsTTY,
  });
}

/** The output format, or table when the format given is itself invalid (for error reports). */
export function outputFormatOrTable(raw: RawGlobalOptions, env: Env, io: IO): OutputFormat {
  try {
    return outputFormat(raw, env, io);
  } catch {
    return 'table';
  }
}

export function resolveSettings(raw: RawGlobalOptions, env: Env, io: IO): Settings {
  const profileFlag = nonEmpty(raw.profile);
  const profileEnv = nonEmpty(env.PETSTORE_PROFILE);
  return {
    profile: profileFlag
      ? { name: profileFlag, source: 'flag' }
      : profileEnv
        ? { name: profileEnv, source: 'env' }
        : undefined,
    baseUrl: nonEmpty(raw.baseUrl) ?? nonEmpty(env.PETSTORE_BASE_URL),
    quickstartUrl: nonEmpty(raw.quickstartUrl) ?? nonEmpty(env.PETSTORE_QUICKSTART_URL),
    output: outputFormat(raw, env, io),
    color: colorEnabled({ noColorFlag: raw.color === false, env, isTTY: io.stdoutIsTTY }),
    prettyJson: io.stdoutIsTTY,
    verbose: raw.verbose === true,
    quiet: raw.quiet === true,
    timeoutSeconds: parseTimeout(raw.timeout),
    retries: parseRetries(raw.retries),
    allowInsecureHttp: raw.allowInsecureHttp === true,
  };
}
