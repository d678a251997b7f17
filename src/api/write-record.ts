import { IDEMPOTENCY_KEY_HEADER } from '../core/contract.js';
import { errorIdentity } from '../core/error-identity.js';
import { ApiError, NetworkError, PetstoreError } from '../core/errors.js';
import type { Redact } from '../core/redaction/index.js';
import type { HttpRequest } from './http.js';
import { wasNeverSent } from './network-errors.js';

/**
 * What became of one write a client sent (a POST, whatever sent it: a verb, a bulk run, an agent's
 * tool call, petstore api), told once its fate is known: the one place below every front end
 * that sees each write, for whoever keeps a record of them (ClientSettings.onWrite).
 */
export interface WriteRecord {
  method: string;
  /** The request's URL, secrets the run knows of masked. */
  url: string;
  idempotencyKey: string | undefined;
  /**
   * `answered`: the service gave a status (`status`; `replayed` when it answered from an
   * earlier send of the key); `unknown`: it may have acted, no answer said so; `unsent`: it
   * certainly did not reach the service.
   */
  outcome: 'answered' | 'unknown' | 'unsent';
  status: number | undefined;
  replayed: boolean;
  /** How many times it was sent (retries with the same key included). */
  attempts: number;
  /** When it was first sent (ISO 8601), and how long until its fate was known. */
  startedAt: string;
  durationMs: number;
  /** Why it was not answered, for `unknown` and `unsent`. */
  error?: { code: string; message: string } | undefined;
}

/** What a send that threw says of the write: certainly not sent, or its outcome unknown. */
export function failedWriteOutcome(
  error: unknown,
): Pick<WriteRecord, 'outcome' | 'status' | 'error'> {
  const { code, message } = errorIdentity(error);
  if (error instanceof ApiError && !error.outcomeUnknown) {
    return { outcome: 'answered', status: error.status, error: { code, message } };
  }
  const unsent = error instanceof NetworkError && !error.outcomeUnknown && wasNeverSent(error);
  // Anything else that ended the send (an abort, a bug) cannot prove the write never left.
  const outcome = unsent ? 'unsent' : 'unknown';
  const status = error instanceof PetstoreError && error.status ? error.status : undefined;
  return { outcome, status, error: { code, message } };
}

export function writeRecord(
  request: HttpRequest,
  redact: Redact,
  run: { started: number; attempts: number; replayed: boolean },
  fate: Pick<WriteRecord, 'outcome' | 'status' | 'error'>,
): WriteRecord {
  return {
    method: request.method,
    url: redact(request.url.href),
    idempotencyKey: request.headers[IDEMPOTENCY_KEY_HEADER],
    ...fate,
    replayed: run.replayed,
    attempts: run.attempts,
    startedAt: new Date(run.started).toISOString(),
    durationMs: Math.max(0, Date.now() - run.started),
  };
}
