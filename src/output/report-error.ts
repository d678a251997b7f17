import { fitLine } from '../core/wrap-text.js';
import {
  ApiError,
  BulkFailedError,
  ConfigError,
  DiagnosisFailedError,
  IncompleteListError,
  CancelledError,
  InterruptedError,
  MissingCredentialError,
  NetworkError,
  OutputClosedError,
  OutputFailedError,
  PetstoreError,
  ProtocolError,
  SmokeFailedError,
  TryLaterError,
  SmokeKeyRefusedError,
  UsageError,
  WriteRefusedError,
} from '../core/errors.js';
import { errorIdentity, systemError } from '../core/error-identity.js';
import type { Hint } from '../core/phrase.js';
import { sanitizeLine, sanitizeText } from '../core/sanitize.js';
import { commandLineHint } from './wording.js';

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
  /** EX_TEMPFAIL: the service asked to wait longer than --max-wait allows; try again later. */
  tryLater: 75,
  interrupted: 130,
  /** As a shell reports a writer ended by SIGPIPE: stdout closed before a bulk run finished. */
  outputClosed: 141,
  terminated: 143,
} as const;

const BUG_HINT = 'This is a bug in petstore. Run again with --verbose and report the output.';

/** The one place that turns an error into an exit code. */
export function exitCodeFor(error: unknown): number {
  if (error instanceof DiagnosisFailedError) return error.exitCode;
  // A record whose outcome an earlier run left unknown: the network gave no answer.
  if (error instanceof BulkFailedError) {
    return error.firstProblem === undefined ? ExitCode.network : exitCodeFor(error.firstProblem);
  }
  if (error instanceof IncompleteListError) return exitCodeFor(error.failure);
  if (error instanceof UsageError) return ExitCode.usage;
  if (error instanceof WriteRefusedError) return ExitCode.usage;
  if (error instanceof ConfigError) return ExitCode.usage;
  if (error instanceof MissingCredentialError) return ExitCode.auth;
  if (error instanceof NetworkError) return ExitCode.network;
  if (error instanceof TryLaterError) return ExitCode.tryLater;
  if (error instanceof SmokeKeyRefusedError) return ExitCode.auth;
  if (error instanceof SmokeFailedError) return ExitCode.smokeFailed;
  if (error instanceof OutputClosedError) return ExitCode.outputClosed;
  // Like a file that cannot be written: the machine's state.
  if (error instanceof OutputFailedError) return ExitCode.usage;
  if (error instanceof CancelledError) return ExitCode.interrupted;
  if (error instanceof InterruptedError) {
    return error.signal === 'SIGTERM' ? ExitCode.terminated : ExitCode.interrupted;
  }
  if (error instanceof ProtocolError) return ExitCode.service;
  if (error instanceof ApiError) return exitCodeForStatus(error.status);
  // A file, folder or port refused by the system is the machine's state, not a bug.
  if (systemError(error)) return ExitCode.usage;
  return ExitCode.unexpected;
}

function exitCodeForStatus(status: number): number {
  if (status === 401 || status === 403) return ExitCode.auth;
  if (status === 404) return ExitCode.notFound;
  if (status === 429 || status >= 500) return ExitCode.service;
  if (status >= 400) return ExitCode.invalid;
  return ExitCode.service;
}

/** The contract's Error shape for any error, with a hint and request id where they help. */
export interface ErrorFields {
  code: string;
  message: string;
  status: number;
  hint?: string;
  requestId?: string;
  /** Of a list that failed part way: how many items were printed before the failure. */
  printed?: number;
  /** Of a write whose outcome is unknown: the key to send it again with, safely. */
  idempotencyKey?: string;
}

/**
 * The contract's fields of any error, its hint in `wording`'s words (the command line's unless
 * a front end gives its own; undefined words: that front end words the hint itself).
 */
export function errorFields(
  error: unknown,
  wording: (hint: Hint) => string | undefined = commandLineHint,
): ErrorFields {
  const system = error instanceof PetstoreError ? undefined : systemError(error);
  const fields: ErrorFields = errorIdentity(error);
  const hint =
    error instanceof PetstoreError
      ? error.hint
      : system
        ? 'Check that the path exists and that you may use it.'
        : BUG_HINT;
  const words = hint === undefined ? undefined : wording(hint);
  if (words) fields.hint = sanitizeLine(words);
  const answered = error instanceof IncompleteListError ? error.failure : error;
  if (answered instanceof ApiError && answered.requestId)
    fields.requestId = sanitizeLine(answered.requestId);
  if (error instanceof IncompleteListError) fields.printed = error.printed;
  if (error instanceof PetstoreError && error.outcomeUnknown && error.idempotencyKey) {
    fields.idempotencyKey = sanitizeLine(error.idempotencyKey);
  }
  return fields;
}

export interface ErrorReportOptions {
  json: boolean;
  verbose: boolean;
  write: (text: string) => void;
  /** The terminal's width, when stderr is one: text lines are broken at spaces to fit it. */
  width?: number | undefined;
}

/** What a report says before the message: "petstore: " or "petstore: record 3 (Rex): ". */
interface Subject {
  label?: string;
  /** Said instead of the error's own hint. */
  hint?: Hint | undefined;
  /** Extra members of the JSON form, e.g. { record: 3 }. */
  fields?: Record<string, unknown>;
}

function writeReport(error: unknown, options: ErrorReportOptions, subject: Subject): void {
  const fields = errorFields(error);
  if (subject.hint !== undefined) fields.hint = sanitizeLine(commandLineHint(subject.hint));
  if (options.json) {
    options.write(JSON.stringify({ ...fields, ...subject.fields }) + '\n');
    return;
  }
  const details = [
    error instanceof ApiError ||
    (error instanceof IncompleteListError && error.failure instanceof ApiError)
      ? fields.code
      : undefined,
    fields.status ? `HTTP ${fields.status}` : undefined,
    fields.requestId ? `request id ${fields.requestId}` : undefined,
  ].filter((detail) => detail !== undefined);
  const suffix = details.length > 0 ? ` (${details.join(', ')})` : '';
  const label = subject.label ? `${subject.label}: ` : '';
  const { width } = options;
  options.write(`${fitLine(`petstore: ${label}${fields.message}${suffix}`, width, '  ')}\n`);
  if (fields.hint) options.write(`${fitLine(`hint: ${fields.hint}`, width, '      ')}\n`);
}

/** Writes the error to stderr in the form the contract gives; returns the exit code. */
export function reportError(error: unknown, options: ErrorReportOptions): number {
  const stack =
    options.verbose && error instanceof Error && error.stack && !(error instanceof UsageError)
      ? // A stack carries the service's message: sanitised like any other text from it.
        sanitizeText(error.stack)
      : undefined;
  // In JSON, the stack is a member of the error's one object (stderr stays one object a line).
  writeReport(error, options, stack !== undefined && options.json ? { fields: { stack } } : {});
  if (stack !== undefined && !options.json) options.write(stack + '\n');
  return exitCodeFor(error);
}

/** One failed record of a bulk run, in the same form as any other error. */
export function reportRecordError(
  error: unknown,
  options: Omit<ErrorReportOptions, 'verbose'>,
  record: { position: number; name: string; hint?: Hint | undefined },
): void {
  writeReport(
    error,
    { ...options, verbose: false },
    {
      label: `record ${record.position} (${sanitizeLine(record.name)})`,
      fields: { record: record.position },
      hint: record.hint,
    },
  );
}
