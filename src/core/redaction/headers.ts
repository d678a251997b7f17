/** Headers that carry credentials: shown with their scheme only (`Bearer [redacted]`). */
const REDACTED_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie']);

/** A header's value as it may be shown (a log, a --dry-run request). */
export function redactHeader(name: string, value: string): string {
  if (!REDACTED_HEADERS.has(name.toLowerCase())) return value;
  const scheme = /^(\w+)\s/.exec(value)?.[1];
  return scheme ? `${scheme} [redacted]` : '[redacted]';
}
