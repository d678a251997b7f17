import { IDEMPOTENCY_KEY_WINDOW } from '../core/contract.js';
import type { DatabaseSync, StatementSync } from 'node:sqlite';

/** How often expired Idempotency-Keys are deleted (lookups ignore them at once). */
const PRUNE_EVERY_MS = 1000;

/** How long the sandbox remembers an Idempotency-Key: 24 hours, as Stripe does. */
export const IDEMPOTENCY_KEY_LIFETIME_MS = IDEMPOTENCY_KEY_WINDOW.defaultMs;

/** A response kept for an Idempotency-Key: status and body text, sent again as they were. */
export interface StoredResponse {
  status: number;
  body: string;
}

/** Where an Idempotency-Key is looked up: per route and per API key, and what was sent. */
export interface IdempotentRequest {
  scope: string;
  key: string;
  /** A digest of the request's content: the same key with other content is refused. */
  digest: string;
  /** Milliseconds since the epoch. */
  now: number;
}

export type IdempotentOutcome =
  | { kind: 'performed'; response: StoredResponse }
  | { kind: 'replayed'; response: StoredResponse }
  | { kind: 'key-reused'; response: undefined };

/**
 * The Idempotency-Keys the sandbox has seen, each with the response it gave, kept for their
 * lifetime per scope (route and caller).
 */
export class IdempotencyKeys {
  /** When expired Idempotency-Keys were last deleted (ms since the epoch). */
  private lastPruned = Number.NEGATIVE_INFINITY;
  private readonly forgetOldKeys: StatementSync;
  private readonly selectKey: StatementSync;
  private readonly insertKey: StatementSync;

  constructor(db: DatabaseSync) {
    this.forgetOldKeys = db.prepare('DELETE FROM idempotency_keys WHERE created_at < :before');
    // A key past its lifetime counts as unseen even before the pruning removes it.
    this.selectKey = db.prepare(
      `SELECT request_digest, status, body FROM idempotency_keys
       WHERE scope = :scope AND key = :key AND created_at >= :since`,
    );
    this.insertKey = db.prepare(
      `INSERT OR REPLACE INTO idempotency_keys (scope, key, request_digest, status, body, created_at)
       VALUES (:scope, :key, :digest, :status, :body, :now)`,
    );
  }

  /**
   * Performs `action` once per Idempotency-Key; run it with write(), so the key is looked up
   * and the action run and its response stored in one write transaction, and two processes
   * sending one key at once create one pet. A key seen within its lifetime with the same digest
   * replays the stored response; with another digest it is refused. Only a response the action
   * returns is stored: one that throws (a bad request, no ids left) stores nothing.
   */
  idempotent(request: IdempotentRequest, action: () => StoredResponse): IdempotentOutcome {
    const since = request.now - IDEMPOTENCY_KEY_LIFETIME_MS;
    // Expired keys are deleted at most once a second, not by every write.
    if (request.now - this.lastPruned >= PRUNE_EVERY_MS || request.now < this.lastPruned) {
      this.forgetOldKeys.run({ before: since });
      this.lastPruned = request.now;
    }
    // all(), not get(): statements run to completion inside the shared transaction.
    const [stored] = this.selectKey.all({ scope: request.scope, key: request.key, since }) as {
      request_digest: string;
      status: number;
      body: string;
    }[];
    if (stored === undefined) {
      const response = action();
      this.insertKey.run({ ...request, status: response.status, body: response.body });
      return { kind: 'performed', response };
    }
    if (stored.request_digest === request.digest) {
      return { kind: 'replayed', response: { status: stored.status, body: stored.body } };
    }
    return { kind: 'key-reused', response: undefined };
  }
}
