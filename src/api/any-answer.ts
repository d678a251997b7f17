import { ProtocolError } from '../core/errors.js';
import { JsonTooDeepError, MAX_JSON_DEPTH, parseJson } from '../core/json.js';
import { snippet } from '../core/sanitize.js';
import type { HttpMethod, HttpRequest, HttpResponse } from './http.js';
import type { BrokenLink } from './link-header.js';
import { scrubStrings, type Redact } from '../core/redaction/index.js';

/** A request of `petstore api`: a path (see resolveApiPath) or a URL already resolved. */
export interface AnyRequest {
  method: HttpMethod;
  path: string;
  url?: URL | undefined;
  headers?: Record<string, string> | undefined;
  /** JSON text. */
  body?: string | undefined;
  /** Sent with no Authorization header at all: to see that the service refuses it (smoke). */
  anonymous?: boolean | undefined;
}

export interface AnyAnswer {
  status: number;
  headers: Record<string, string | undefined>;
  /** The body as JSON (int64 exact) when it is JSON, else its text ('' when empty). */
  body: unknown;
  /** The body is text, not JSON (a JSON string body is JSON). */
  isText: boolean;
  url: URL;
  /** The page after this one, when the service links one (RFC 8288 rel="next"). */
  next: URL | BrokenLink | undefined;
}

/**
 * A response body as JSON when it says it is (a body that says so and is not is a broken
 * answer), or when it reads as JSON; else its text. The JSON's strings are masked as decoded
 * (scrubStrings): one can spell a key with escapes its text does not show.
 */
export function bodyOf(
  response: HttpResponse,
  request: HttpRequest,
  redact: Redact,
): { body: unknown; isText: boolean } {
  if (response.text === '') return { body: '', isText: true };
  try {
    return { body: scrubStrings(parseJson(response.text), redact), isText: false };
  } catch (error) {
    if (error instanceof JsonTooDeepError) {
      throw new ProtocolError(
        response.status,
        `the HTTP ${response.status} response to ${request.method} ${request.url.pathname} is valid JSON, but nested more than ${MAX_JSON_DEPTH} levels deep`,
        { cause: error },
      );
    }
    if (!/json/i.test(response.headers['content-type'] ?? '')) {
      return { body: response.text, isText: true };
    }
    throw new ProtocolError(
      response.status,
      `the HTTP ${response.status} response to ${request.method} ${request.url.pathname} says it is JSON but is not: ${snippet(response.text)}`,
      { cause: error },
    );
  }
}

/** An answer as it came (any status), its body parsed when it is JSON. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string | undefined>;
  /** The body's text, every secret masked. */
  text: string;
  /** The body as JSON (int64 exact, secrets masked), or undefined when it is not JSON. */
  json: unknown;
  url: URL;
  /** The body was not valid UTF-8. */
  notUtf8: boolean;
}

export function rawAnswer(response: HttpResponse, url: URL, redact: Redact): RawAnswer {
  let json: unknown;
  try {
    json = response.text === '' ? undefined : scrubStrings(parseJson(response.text), redact);
  } catch {
    json = undefined;
  }
  const { status, headers, text } = response;
  return { status, headers, text, json, url, notUtf8: response.notUtf8 === true };
}
