import { CommanderError } from 'commander';
import {
  ApiError,
  BulkFailedError,
  ConfigError,
  InterruptedError,
  MissingCredentialError,
  NetworkError,
  PetstoreError,
  ProtocolError,
  SmokeFailedError,
  UsageError,
} from './errors.js';
import { sanitizeLine } from './output/sanitize.js';

/** The exit codes of the command-line contract. */
export const ExitCode = {
  ok: 0,
  unexpected: 1,
  usage: 2,
  auth: 3,
  notFound: 4,
  invalid: 5,
  service: 6,
  network: 7,
  smokeFailed: 8,
  interrupted: 130,
} as const;

const ISSUE_URL_HINT = 'This is a bug in petstore. Run again with --verbose and report the output.';

/** The one place that turns an error into an exit code. */
export function exitCodeFor(error: unknown): number {
  if (error instanceof BulkFailedError) return error.exitCode;
  if (error instanceof UsageError) return ExitCode.usage;
  if (error instanceof ConfigError) return ExitCode.usage;
  if (error instanceof MissingCredentialError) return ExitCode.auth;
  if (error instanceof NetworkError) return ExitCode.network;
  if (error instanceof SmokeFailedError) return ExitCode.smokeFailed;
  if (error instanceof InterruptedError) return ExitCode.interrupted;
  if (error instanceof ProtocolError) return ExitCode.service;
  if (error instanceof ApiError) return exitCodeForStatus(error.status);
  if (error instanceof CommanderError) return ExitCode.usage;
  return ExitCode.unexpected;
}

export function exitCodeForStatus(status: number): number {
  if (status === 401 || status === 403) return ExitCode.auth;
  if (status === 404) return ExitCode.notFound;
  if (status === 429 || status >= 500) return ExitCode.service;
  if (status >= 400) return ExitCode.invalid;
  return ExitCode.service;
}

export interface ErrorReportOptions {
  json: boolean;
  verbose: boolean;
  write: (text: string) => void;
}

/** Writes the error to stderr in the form the contract gives; returns the exit code. */
export function reportError(error: unknown, options: ErrorReportOptions): number {
  const exitCode = exitCodeFor(error);
  const known = error instanceof PetstoreError;
  const message = known
    ? error.message
    : `unexpected error: ${error instanceof Error ? error.message : String(error)}`;
  const code = known ? error.code : 'internal';
  const status = known ? error.status : 0;
  const hint = known ? error.hint : ISSUE_URL_HINT;

  if (options.json) {
    const body: Record<string, unknown> = { code, message: sanitizeLine(message), status };
    if (hint) body.hint = sanitizeLine(hint);
    options.write(JSON.stringify(body) + '\n');
  } else {
    const suffix = error instanceof ApiError ? ` (${sanitizeLine(code)}, HTTP ${status})` : '';
    options.write(`petstore: ${sanitizeLine(message)}${suffix}\n`);
    if (hint) options.write(`hint: ${sanitizeLine(hint)}\n`);
  }
  if (options.verbose && error instanceof Error && error.stack && !(error instanceof UsageError)) {
    options.write(error.stack + '\n');
  }
  return exitCode;
}
