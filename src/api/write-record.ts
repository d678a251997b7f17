import { IDEMPOTENCY_KEY_HEADER, REQUEST_ID_HEADER } from '../core/contract.js';
import { errorIdentity } from '../core/error-identity.js';
import { ApiError, NetworkError, PetstoreError } from '../core/errors.js';
import type { Redact } from '../core/redaction/index.js';
import { parseJson } from '../core/json.js';
import type { HttpRequest, HttpResponse } from './http.js';
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
  /** The id the service gave the request (X-Request-Id), when it gave one. */
  requestId: string | undefined;
  /** The id of what a 2xx answer created (a pet, a message), as the service wrote it. */
  resultId: string | undefined;
  /** The W3C trace it was sent in (its traceparent's trace id), when it carried one. */
  traceId?: string | undefined;
  /** The body sent: a pet's fields are kept by the record; anything else only by its length. */
  body: string | undefined;
  label: WriteLabel | undefined;
}

/** What a send that threw says of the write: certainly not sent, or its outcome unknown. */
export type WriteFate = Pick<
  WriteRecord,
  'outcome' | 'status' | 'error' | 'requestId' | 'resultId'
>;

/** The largest answer whose `id` is read for the record: a pet or a receipt is far smaller. */
const MAX_ID_READ_BYTES = 64 * 1024;

/** Why a service refused a write, as its Error body says (code, message), or its status. */
function refusalOf(response: HttpResponse): { code: string; message: string } {
  try {
    const body = parseJson(response.text.slice(0, MAX_ID_READ_BYTES)) as {
      code?: unknown;
      message?: unknown;
    } | null;
    if (typeof body?.message === 'string') {
      const code = typeof body.code === 'string' ? body.code : `http_${response.status}`;
      return { code, message: body.message };
    }
  } catch {
    // Not the interface's Error body: the status says it.
  }
  return { code: `http_${response.status}`, message: `HTTP ${response.status}` };
}

/** What an answer says of a write: its status, request id, and the id of what it created. */
export function answeredWriteOutcome(response: HttpResponse): WriteFate {
  let resultId: string | undefined;
  if (
    response.status >= 200 &&
    response.status < 300 &&
    response.text.length <= MAX_ID_READ_BYTES
  ) {
    try {
      const id = (parseJson(response.text) as { id?: unknown } | null)?.id;
      if (typeof id === 'number' || typeof id === 'bigint' || typeof id === 'string') {
        resultId = String(id);
      }
    } catch {
      // Not JSON: nothing created that the record can name.
    }
  }
  return {
    outcome: 'answered',
    status: response.status,
    error: response.status >= 300 ? refusalOf(response) : undefined,
    requestId: response.headers[REQUEST_ID_HEADER],
    resultId,
  };
}

export function failedWriteOutcome(error: unknown): WriteFate {
  const { code, message } = errorIdentity(error);
  const requestId = error instanceof ApiError ? error.requestId : undefined;
  if (error instanceof ApiError && !error.outcomeUnknown) {
    const fate = { outcome: 'answered', status: error.status, error: { code, message } } as const;
    return { ...fate, requestId, resultId: undefined };
  }
  const unsent = error instanceof NetworkError && !error.outcomeUnknown && wasNeverSent(error);
  // Anything else that ended the send (an abort, a bug) cannot prove the write never left.
  const outcome = unsent ? 'unsent' : 'unknown';
  const status = error instanceof PetstoreError && error.status ? error.status : undefined;
  return { outcome, status, error: { code, message }, requestId, resultId: undefined };
}

export function writeRecord(
  request: HttpRequest,
  redact: Redact,
  run: { started: number; attempts: number; replayed: boolean },
  fate: WriteFate,
  label: WriteLabel | undefined,
): WriteRecord {
  return {
    method: request.method,
    url: redact(request.url.href),
    idempotencyKey: request.headers[IDEMPOTENCY_KEY_HEADER],
    // The trace of the traceparent it carried (00-TRACE-SPAN-FLAGS).
    traceId: request.headers.traceparent?.slice(3, 35),
    ...fate,
    body: request.body === undefined ? undefined : redact(request.body),
    label,
    replayed: run.replayed,
    attempts: run.attempts,
    startedAt: new Date(run.started).toISOString(),
    durationMs: Math.max(0, Date.now() - run.started),
  };
}

/** What a write is part of, as the record of writes keeps it. */
export interface WriteLabel {
  /** The operation it does: `pets add`, `pets import`, `message send`, `api`, `smoke`. */
  operation: string;
  /** For a record of a bulk run: its batch, and its 1-based place in the input. */
  batch?: string | undefined;
  record?: number | undefined;
  /** Of a message: its length in characters (the record keeps no text of it). */
  length?: number | undefined;
  /**
   * What a check (smoke) sends the write to see: a pet `created` (its fields kept as a pet's
   * are), or the service `refused` it, as a request made wrong on purpose should be.
   */
  expected?: 'created' | 'queued' | 'refused' | undefined;
}
