import { joinHints } from '../core/phrase.js';
import { IDEMPOTENCY_KEY_HEADER } from '../core/contract.js';
import { ApiError, NetworkError, ProtocolError } from '../core/errors.js';
import { resendHint, type UnknownOutcome } from '../core/unknown-outcome.js';
import type { HttpRequest } from './http.js';

/** A write sent with no answer: its error says the outcome is unknown, with its key. */
export function outcomeUnknownError(
  error: NetworkError,
  request: HttpRequest,
  unknown: UnknownOutcome = { what: 'it may or may not have taken effect', hint: '' },
): NetworkError {
  const reason = error.message.replace(/^cannot reach \S+: /, '');
  const key = request.headers[IDEMPOTENCY_KEY_HEADER];
  return new NetworkError(
    error.code,
    `no answer to ${request.method} ${request.url.pathname} from ${request.url.host} (${reason}): the outcome is unknown, ${unknown.what}${key ? ` (Idempotency-Key ${key})` : ''}`,
    {
      hint: resendHint(unknown, key) || undefined,
      cause: error,
      outcomeUnknown: true,
      idempotencyKey: key,
    },
  );
}

/**
 * A write the service answered with a failure of its own (5xx), or with success (2xx) in a body
 * that cannot be read: it may have been carried out, so its error says the outcome is unknown
 * and how to send it again safely. A refusal (4xx) did nothing and is left as it is.
 */
export function answeredWithoutOutcome(
  error: unknown,
  status: number,
  request: HttpRequest,
  unknown: UnknownOutcome,
): unknown {
  const succeeded = status >= 200 && status <= 299;
  if (!(succeeded || status >= 500)) return error;
  if (!(error instanceof ApiError || error instanceof ProtocolError)) return error;
  const key = request.headers[IDEMPOTENCY_KEY_HEADER];
  const why = succeeded
    ? `The service answered HTTP ${status} (success) but its answer cannot be read: ${unknown.what}.`
    : `The service failed after receiving the request: ${unknown.what}.`;
  const options = {
    hint: joinHints(why, resendHint(unknown, key)),
    cause: error,
    outcomeUnknown: true,
    idempotencyKey: key,
  };
  return error instanceof ApiError
    ? new ApiError(error.status, error.code, error.message, {
        ...options,
        requestId: error.requestId,
      })
    : new ProtocolError(error.status, error.message, options);
}

/** A write answered with a response that is not valid HTTP: it may have been carried out. */
export function brokenAnswer(
  error: ProtocolError,
  request: HttpRequest,
  unknown: UnknownOutcome = { what: 'it may or may not have taken effect', hint: '' },
): ProtocolError {
  const key = request.headers[IDEMPOTENCY_KEY_HEADER];
  return new ProtocolError(
    error.status,
    `${error.message}: the outcome is unknown, ${unknown.what}`,
    {
      hint: joinHints(
        'The service received the request but its answer cannot be read.',
        resendHint(unknown, key),
      ),
      cause: error,
      outcomeUnknown: true,
      idempotencyKey: key,
    },
  );
}
