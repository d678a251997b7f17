import { option, phrase, type Hint } from '../core/phrase.js';
import { REQUEST_ID_HEADER, RETRY_AFTER_HEADER } from '../core/contract.js';
import { ApiError, ProtocolError } from '../core/errors.js';
import { snippet } from '../core/sanitize.js';
import { JsonTooDeepError, MAX_JSON_DEPTH, parseJson } from '../core/json.js';
import { describeViolations, listViolations, violations, type Shape } from '../core/shape.js';
import { MESSAGE_RECEIPT, PET } from '../core/interface.js';
import type { HttpResponse } from './http.js';
import { MAX_RETRY_AFTER_MS, parseRetryAfter } from './retry.js';
import { scrubStrings, type Redact } from '../core/redaction/index.js';

const asIs: Redact = (text) => text;

/** Returns a description of what is wrong with the value, or undefined when it fits. */
export type ShapeCheck = (value: unknown) => string | undefined;

/** What the client needs of a body to decode it: the interface's kinds and required fields. */
function decodable(shape: Shape): ShapeCheck {
  return (value) => {
    const found = violations(shape, value, '$', false);
    return found.length === 0 ? undefined : describeViolations(found, 1);
  };
}

export const checkPet: ShapeCheck = decodable(PET);

export const checkPets: ShapeCheck = (value) => {
  if (!Array.isArray(value)) return 'expected an array of pets';
  const found = listViolations(PET, value, false);
  return found.length === 0 ? undefined : describeViolations(found, 1);
};

/** A receipt's `message` echo is not needed to show it: only what the client reads. */
export const checkMessageReceipt: ShapeCheck = decodable({
  id: MESSAGE_RECEIPT.id!,
  status: MESSAGE_RECEIPT.status!,
  createdAt: MESSAGE_RECEIPT.createdAt!,
});

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isJsonContentType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const mediaType = contentType.split(';')[0]!.trim().toLowerCase();
  return mediaType === 'application/json' || mediaType.endsWith('+json');
}

function describeBody(response: HttpResponse): string {
  if (response.text.length === 0) return 'an empty body';
  return `"${snippet(response.text)}"`;
}

/**
 * The body's JSON, with every secret masked in its strings: JSON can spell a key with \u
 * escapes, which the text itself (already masked) does not show. Whatever reads the value (a
 * table, an error message, the journal) gets it masked.
 */
function tryParse(
  text: string,
  redact: Redact,
): { ok: true; value: unknown } | { ok: false; tooDeep: boolean } {
  try {
    return { ok: true, value: scrubStrings(parseJson(text), redact) };
  } catch (error) {
    return { ok: false, tooDeep: error instanceof JsonTooDeepError };
  }
}

/** Decodes a 2xx response of the given shape, or throws a typed error for anything else. */
export function decodeResponse<T>(
  response: HttpResponse,
  check: ShapeCheck,
  what: string,
  hints: Partial<Record<number, Hint>> = {},
  redact: Redact = asIs,
): T {
  const { status } = response;
  if (status < 200 || status > 299) throw errorFromResponse(response, hints, redact);
  if (!isJsonContentType(response.headers['content-type'])) {
    const type = response.headers['content-type'] ?? 'no content type';
    throw new ProtocolError(
      status,
      `expected JSON (${what}) in the HTTP ${status} response, got ${type} with ${describeBody(response)}`,
    );
  }
  const parsed = tryParse(response.text, redact);
  if (!parsed.ok) {
    throw new ProtocolError(
      status,
      parsed.tooDeep
        ? `the HTTP ${status} response is not ${what}: valid JSON, but nested more than ${MAX_JSON_DEPTH} levels deep`
        : `the HTTP ${status} response is not valid JSON: ${describeBody(response)}`,
    );
  }
  const problem = check(parsed.value);
  if (problem) {
    throw new ProtocolError(status, `the HTTP ${status} response is not ${what}: ${problem}`);
  }
  return parsed.value as T;
}

/** For a service refusing an Idempotency-Key, e.g. one already sent with another body. */
const IDEMPOTENCY_KEY_HINT = phrase`An Idempotency-Key stands for one request: send a different request with a new key (another ${option('idempotencyKey')}, or none).`;

/** An error status becomes an ApiError; the spec's Error body supplies code and message. */
/** What a Retry-After the client did not wait for (past its 30 s) asks of the user. */
function retryAfterHint(response: HttpResponse): string | undefined {
  if (response.status !== 429 && response.status !== 503) return undefined;
  const waitMs = parseRetryAfter(response.headers[RETRY_AFTER_HEADER], Date.now());
  if (waitMs === undefined || waitMs <= MAX_RETRY_AFTER_MS) return undefined;
  const seconds = Math.ceil(waitMs / 1000);
  return `The service asks to wait ${seconds} s before trying again (Retry-After), longer than petstore waits on its own: run the command again after that.`;
}

export function errorFromResponse(
  response: HttpResponse,
  hints: Partial<Record<number, Hint>> = {},
  redact: Redact = asIs,
): ApiError {
  const { status } = response;
  const requestId = response.headers[REQUEST_ID_HEADER];
  const hint = hints[status] ?? retryAfterHint(response);
  const parsed = tryParse(response.text, redact);
  if (parsed.ok && isObject(parsed.value)) {
    const { code, message } = parsed.value;
    if (typeof code === 'string' && typeof message === 'string') {
      return new ApiError(status, code, message, {
        hint: hint ?? (/idempotency/i.test(code) ? IDEMPOTENCY_KEY_HINT : undefined),
        requestId,
        headers: response.headers,
      });
    }
  }
  return new ApiError(
    status,
    `http_${status}`,
    `the service answered HTTP ${status} without an Error body: ${describeBody(response)}`,
    { hint, requestId, headers: response.headers },
  );
}
