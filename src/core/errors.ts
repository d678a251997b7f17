import { command, phrase, type Hint } from './phrase.js';

/**
 * Every failure the tool reports is one of these types. The exit code and the
 * message a user sees are derived from the type in `src/output/report-error.ts`.
 */
export abstract class PetstoreError extends Error {
  /** Machine-readable code, shown in the JSON error form. */
  abstract readonly code: string;
  /** HTTP status when the service answered, else 0. */
  readonly status: number = 0;
  /** One line telling the user what to do next; each front end words its references. */
  readonly hint: Hint | undefined;
  /**
   * A write the service may or may not have carried out: sent with no answer, answered 5xx,
   * or answered 2xx with a body that cannot be read. Never sent again unasked.
   */
  readonly outcomeUnknown: boolean;
  /** The Idempotency-Key such a write was sent with: sending again with it is safe. */
  readonly idempotencyKey: string | undefined;

  constructor(message: string, options: PetstoreErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.hint = options.hint;
    this.outcomeUnknown = options.outcomeUnknown ?? false;
    this.idempotencyKey = options.idempotencyKey;
  }
}

export interface PetstoreErrorOptions {
  hint?: Hint | undefined;
  cause?: unknown;
  outcomeUnknown?: boolean | undefined;
  idempotencyKey?: string | undefined;
}

/** Bad flags, arguments or input: nothing was sent. */
export class UsageError extends PetstoreError {
  readonly code = 'usage';
}

/**
 * A write the agent interface would not send: writes are off, the profile denies them, or the
 * person did not confirm. Nothing was sent; `code` says which (writes_off, writes_denied, ...).
 */
export class WriteRefusedError extends PetstoreError {
  readonly code: string;
  constructor(code: string, message: string, options: { hint?: Hint } = {}) {
    super(message, options);
    this.code = code;
  }
}

/** The local configuration cannot be read or written. */
export class ConfigError extends PetstoreError {
  readonly code = 'config';
  readonly path: string;
  constructor(message: string, path: string, options: { hint?: Hint; cause?: unknown } = {}) {
    super(message, options);
    this.path = path;
  }
}

/** No credential is available for a service call. */
export class MissingCredentialError extends PetstoreError {
  readonly code = 'no_api_key';
}

/** The service answered with an error status. */
export class ApiError extends PetstoreError {
  override readonly status: number;
  readonly code: string;
  readonly requestId: string | undefined;
  /** The answer's headers (secrets masked as they arrived): for `api -i`. */
  readonly headers: Record<string, string | undefined>;
  constructor(
    status: number,
    code: string,
    message: string,
    options: PetstoreErrorOptions & {
      requestId?: string | undefined;
      headers?: Record<string, string | undefined>;
    } = {},
  ) {
    super(message, options);
    this.status = status;
    this.code = code;
    this.requestId = options.requestId;
    this.headers = options.headers ?? {};
  }
}

/** The service answered, but not with what the interface promises (HTML, bad JSON, wrong shape). */
export class ProtocolError extends PetstoreError {
  readonly code = 'unexpected_response';
  override readonly status: number;
  constructor(status: number, message: string, options: PetstoreErrorOptions = {}) {
    super(message, options);
    this.status = status;
  }
}

/** The service could not be reached: refused, DNS, TLS, reset, timeout. */
export class NetworkError extends PetstoreError {
  readonly code: string;
  constructor(code: string, message: string, options: PetstoreErrorOptions = {}) {
    super(message, options);
    this.code = code;
  }
}

/**
 * Network failures raised before a connection to the service was made (refused, no such
 * host, no connection in time): no byte of the request reached it, so it is safe to send again
 * whatever the method.
 */
export const CONNECT_FAILURES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** The request never reached the service (see CONNECT_FAILURES). */
export function neverReachedService(error: unknown): boolean {
  // Or it refused to take any request for a while (TryLaterError): nothing was done, and every
  // record would meet the same refusal.
  return (
    (error instanceof NetworkError && CONNECT_FAILURES.has(error.code)) ||
    error instanceof TryLaterError
  );
}

/**
 * The service asked to be left alone (429, or 503 to a read, with Retry-After) for longer than
 * the run may wait (--max-wait): nothing was done by that request, and the command stops so a
 * scheduler can run it again later (exit 75, EX_TEMPFAIL).
 */
export class TryLaterError extends PetstoreError {
  readonly code = 'try_later';
  override readonly status: number;
  /** When the service said it could be asked again (ms since the epoch). */
  readonly retryAt: number;
  constructor(message: string, options: { status: number; retryAt: number; hint?: Hint }) {
    super(message, { hint: options.hint });
    this.status = options.status;
    this.retryAt = options.retryAt;
  }
}

/** `smoke` ran and at least one check failed. */
export class SmokeFailedError extends PetstoreError {
  readonly code: string = 'smoke_failed';
}

/**
 * `smoke` ran and the service refused its API key (401): the checks could not judge the
 * deployment, so this is the key's failure (exit 3), not the service's.
 */
export class SmokeKeyRefusedError extends SmokeFailedError {
  override readonly code = 'unauthorized';
  override readonly status = 401;
}

/** The run was interrupted: Ctrl-C (SIGINT), a service manager (SIGTERM), or a closed reader. */
export class InterruptedError extends PetstoreError {
  readonly code = 'interrupted';
  /** The signal that asked the run to stop; SIGINT for a Ctrl-C typed at a prompt. */
  readonly signal: 'SIGINT' | 'SIGTERM';
  /** Stopped at once (a second signal): work still in flight was abandoned, not awaited. */
  readonly immediate: boolean;
  constructor(
    message: string,
    options: { signal?: 'SIGINT' | 'SIGTERM'; immediate?: boolean; hint?: Hint } = {},
  ) {
    super(message, { hint: options.hint });
    this.signal = options.signal ?? 'SIGINT';
    this.immediate = options.immediate ?? false;
  }
}

/**
 * The work was called off by whoever asked for it (an agent's client cancelled its call, or the
 * server is stopping): nothing new was started; what was in flight finished and was recorded.
 */
export class CancelledError extends PetstoreError {
  readonly code = 'cancelled';
}

/** The reader of stdout went away (`| head`) before a run that writes had finished. */
export class OutputClosedError extends PetstoreError {
  readonly code = 'output_closed';
}

/**
 * stdout could not be written for another reason than its reader going away (a full disk, an
 * I/O error): the output is incomplete, though the command itself ran (a write took effect).
 */
export class OutputFailedError extends PetstoreError {
  readonly code = 'output_failed';
  constructor(
    failure: NodeJS.ErrnoException,
    what = 'the output is incomplete',
    hint: Hint = phrase`Make room or send the output elsewhere. The command itself ran: check what a write did (${command('pets list')}) before running it again.`,
  ) {
    // "ENOSPC: no space left on device, write" -> "ENOSPC: no space left on device"
    const reason = failure.message.replace(/, \w+$/, '');
    super(`standard output could not be written (${reason}): ${what}`, { hint, cause: failure });
  }
}

/** Some records of a bulk run failed; each was reported as it happened. */
export class BulkFailedError extends PetstoreError {
  readonly code = 'bulk_failed';
  /**
   * The error of the first record, in input order, that did not end created (its exit code is
   * the run's); undefined for a record whose outcome is unknown from an earlier run.
   */
  readonly firstProblem: unknown;
  constructor(message: string, firstProblem: unknown, hint?: Hint) {
    super(message, { hint });
    this.firstProblem = firstProblem;
  }
}

/** `doctor` found something wrong: the exit code is that of the first failure's class. */
export class DiagnosisFailedError extends PetstoreError {
  readonly code = 'doctor_failed';
  readonly exitCode: number;
  constructor(message: string, exitCode: number, hint?: Hint) {
    super(message, { hint });
    this.exitCode = exitCode;
  }
}

/**
 * The list failed part way: some pets were already printed. Exit code and message come from
 * the failure; the message says how much was printed, so a short list is never taken for all.
 */
export class IncompleteListError extends PetstoreError {
  readonly code: string;
  override readonly status: number;
  constructor(
    readonly failure: PetstoreError,
    readonly printed: number,
    page: number,
    /** What the list holds: pets, or the items of `petstore api --paginate`. */
    noun: 'pet' | 'item' = 'pet',
  ) {
    super(
      `page ${page} of the list failed after ${printed} ${noun}${printed === 1 ? ' was' : 's were'} printed; the list is incomplete: ${failure.message}`,
      { hint: failure.hint, cause: failure },
    );
    this.code = failure.code;
    this.status = failure.status;
  }
}
