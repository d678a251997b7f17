import { randomUUID } from 'node:crypto';
import { AUTHORIZATION_HEADER, IDEMPOTENCY_KEY_HEADER } from '../core/contract.js';
import { parseJson } from '../core/json.js';
import { redactHeader } from '../core/redaction/index.js';
import type { TraceHeaders } from '../core/trace-context.js';
import { isSafeMethod, type HttpMethod, type HttpRequest } from './http.js';
import type { WriteOptions } from './options.js';

/** Joins a path to a base URL, keeping the base's path (e.g. /v1) with or without a trailing slash. */
export function joinUrl(base: string, path: string): URL {
  const url = new URL(base);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
  url.search = '';
  url.hash = '';
  return url;
}

/** A request as `--dry-run` shows it: what would be sent, the key redacted. */
export interface RequestPreview {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

export function preview(request: HttpRequest): RequestPreview {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    headers[name] = redactHeader(name, value);
  }
  return {
    method: request.method,
    url: request.url.href,
    headers,
    body: request.body === undefined ? undefined : parseJson(request.body),
  };
}

/**
 * A request with the headers every request carries; a write (any method that is not safe)
 * also gets its Idempotency-Key, and a body its content type. `extra` headers come first, so
 * none of them can replace the key, the credentials or the User-Agent.
 */
export function buildRequest(
  method: HttpMethod,
  url: URL,
  from: { apiKey: string; userAgent: string; trace?: TraceHeaders | undefined },
  body?: string,
  write: WriteOptions = {},
  extra: Record<string, string> = {},
): HttpRequest {
  const headers: Record<string, string> = {
    accept: 'application/json',
    // Its own span of the run's trace; a header given (petstore api -H) takes its place.
    ...from.trace?.next(),
    ...extra,
    [AUTHORIZATION_HEADER]: `Bearer ${from.apiKey}`,
    'user-agent': from.userAgent,
  };
  if (body !== undefined) headers['content-type'] ??= 'application/json';
  // Every write carries a key, so one whose outcome is unknown can be sent again safely.
  if (!isSafeMethod(method)) headers[IDEMPOTENCY_KEY_HEADER] = write.idempotencyKey ?? randomUUID();
  return body === undefined ? { method, url, headers } : { method, url, headers, body };
}
