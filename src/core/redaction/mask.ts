import { AUTHORIZATION_HEADER } from '../contract.js';

/** The one spelling of a secret petstore does not show, wherever it would have been. */
export const MASK = '****';

/** Characters a mask may show as they are in any text it stands in: JSON, a URL, a shell word. */
const PLAIN = /^[A-Za-z0-9._~-]*$/;

/**
 * Shows that a key exists and which one, never the key: the mask, then the last four
 * characters of a key of 12 or more, two of a key of 8 to 11, none of a shorter one, so a mask
 * never gives away much of a key (nor, for a short one, all of it). None either when they are
 * not plain (`\`, `"`, `%`): in a JSON string or a URL they would mean something else.
 */
export function maskKey(key: string): string {
  const shown = key.length >= 12 ? 4 : key.length >= 8 ? 2 : 0;
  const tail = shown ? key.slice(-shown) : '';
  return `${MASK}${PLAIN.test(tail) ? tail : ''}`;
}

/**
 * The headers that carry credentials, the one list: shown with their scheme only
 * (`Bearer ****`) in a log, a --dry-run request and what an agent is shown.
 */
const CREDENTIAL_HEADERS = new Set([
  AUTHORIZATION_HEADER,
  'proxy-authorization',
  'x-api-key',
  'cookie',
  'set-cookie',
]);

/** A header's value as it may be shown (a log, a --dry-run request). */
export function redactHeader(name: string, value: string): string {
  if (!CREDENTIAL_HEADERS.has(name.toLowerCase())) return value;
  const scheme = /^(\w+)\s/.exec(value)?.[1];
  return scheme ? `${scheme} ${MASK}` : MASK;
}
