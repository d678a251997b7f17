/** Masks every secret in a text (SecretRedactor.redact); returns the same string when none. */
export type Redact = (text: string) => string;

/** What of an HTTP response can carry a secret back: its header values and its body. */
interface Answer {
  headers: Record<string, string | undefined>;
  text: string;
}

/**
 * The response with every secret masked in its body and header values, as it arrives: before
 * anything parses it, logs it or cuts an excerpt from it. A service echoing the API key (in an
 * error, a pet's name, a header) cannot get it printed, not even in part. The response itself
 * when there is nothing to mask, which is nearly always: a bulk run makes one per record.
 */
export function scrubResponse<Response extends Answer>(
  response: Response,
  redact: Redact,
): Response {
  const text = redact(response.text);
  let headers = response.headers;
  for (const name in response.headers) {
    const value = response.headers[name];
    if (value === undefined) continue;
    const masked = redact(value);
    if (masked === value) continue;
    if (headers === response.headers) headers = { ...response.headers };
    headers[name] = masked;
  }
  if (text === response.text && headers === response.headers) return response;
  return { ...response, headers, text };
}

/**
 * Masks secrets in the strings of a value decoded from JSON, in place: JSON can spell a key
 * with \u escapes, which the text itself does not show.
 */
export function scrubStrings<T>(value: T, redact: Redact): T {
  if (typeof value === 'string') return redact(value) as T;
  // A number kept as its text (JSON.rawJSON, frozen) is not a string to mask.
  if (typeof value !== 'object' || value === null || JSON.isRawJSON(value)) return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = scrubStrings(value[i] as unknown, redact);
    return value;
  }
  const record = value as Record<string, unknown>;
  for (const key in record) {
    const field = record[key];
    // Only strings can change: numbers and the like are left untouched, not even written.
    if (typeof field === 'string' || (typeof field === 'object' && field !== null)) {
      record[key] = scrubStrings(field, redact);
    }
  }
  return value;
}
