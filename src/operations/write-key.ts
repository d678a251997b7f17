import { randomUUID } from 'node:crypto';

/**
 * The Idempotency-Key of a write: the one given (to send a write of unknown outcome again), or
 * a new UUID. Chosen by the front end before the write, not by the client, so a run that is
 * interrupted can name it.
 */
export function writeKey(given: string | undefined): string {
  return given ?? randomUUID();
}
