import { createHash, randomUUID } from 'node:crypto';

/**
 * The Idempotency-Key of a write: the one given (to send a write of unknown outcome again), or
 * a new UUID. Chosen by the front end before the write, not by the client, so a run that is
 * interrupted can name it.
 */
export function writeKey(given: string | undefined): string {
  return given ?? randomUUID();
}

/**
 * A key made from what names one write (the service, the tool, its arguments, the caller's
 * request id): the same parts make the same key, so a call made again reuses it and the
 * service creates nothing twice. Shaped as a UUID (version 8: made from a hash).
 */
export function derivedWriteKey(parts: readonly string[]): string {
  const hex = createHash('sha256').update(JSON.stringify(parts)).digest('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
