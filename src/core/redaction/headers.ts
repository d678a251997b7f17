import { AUTHORIZATION_HEADER } from '../contract.js';
import { MASK } from './mask.js';

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
