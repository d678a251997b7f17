import type { HttpResponse } from './http.js';

/** Masks every secret in a text (SecretRedactor.redact). */
export type Redact = (text: string) => string;

/**
 * The response with every secret masked in its body and header values, as it arrives: before
 * anything parses it, logs it or cuts an excerpt from it. A service echoing the API key (in an
 * error, a pet's name, a header) cannot get it printed, not even in part.
 */
export function scrubResponse(response: HttpResponse, redact: Redact): HttpResponse {
  const headers: HttpResponse['headers'] = {};
  for (const [name, value] of Object.entries(response.headers)) {
    headers[name] = value === undefined ? undefined : redact(value);
  }
  return { status: response.status, headers, text: redact(response.text) };
}

/**
 * Masks secrets in the strings of a value decoded from JSON, in place: JSON can spell a key
 * with \u escapes, which the text itself does not show.
 */
export function scrubStrings<T>(value: T, redact: Redact): T {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = scrubStrings(value[i] as unknown, redact);
  } else if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) record[key] = scrubStrings(record[key], redact);
  } else if (typeof value === 'string') {
    return redact(value) as T;
  }
  return value;
}
