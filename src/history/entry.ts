/**
 * One write this machine's petstore sent or refused, as the history keeps it: who asked (the
 * command line, or an agent through petstore mcp and its client), where it went, what it was,
 * and what became of it. Never a key, a header value, or a message's text.
 */
export interface HistoryEntry {
  /** Its number in the history (newest highest); absent before it is stored. */
  id?: number;
  /** When it was sent, or refused (ISO 8601). */
  at: string;
  via: HistoryVia;
  /** For `mcp`: the agent's client, as its initialize named it ("claude-code 1.2.0"). */
  client: string | undefined;
  profile: string | undefined;
  /** The service's base URL (credentials masked). */
  service: string | undefined;
  /** `pets add`, `pets import`, `message send`, `api`, `smoke`. */
  operation: string;
  method: string;
  /** Path and query, secrets masked. */
  path: string;
  idempotencyKey: string | undefined;
  requestId: string | undefined;
  outcome: HistoryOutcome;
  /** The service's status when it answered (0: no answer). */
  status: number;
  /** What the write created: a pet's id, a message's id. */
  resultId: string | undefined;
  batch: string | undefined;
  record: number | undefined;
  /** What was sent: a pet's fields as JSON; of anything else, its length only. */
  sent: string | undefined;
  /** Why it did not succeed, in a line. */
  error: string | undefined;
  /** How many times it was sent (retries with its key included), and for how long. */
  attempts: number;
  durationMs: number;
  /**
   * Who sent it: the operating system's user running petstore, and the machine's host name
   * (absent in entries recorded before petstore kept them).
   */
  user?: string | undefined;
  host?: string | undefined;
  /** The W3C trace it was sent in: the CI step's, an agent's call's, or the run's own. */
  trace?: string | undefined;
}

export const HISTORY_VIAS = ['cli', 'mcp'] as const;
export type HistoryVia = (typeof HISTORY_VIAS)[number];

/**
 * What became of a write: `created` (a pet) and `queued` (a message) by a new request;
 * `replayed`, answered from an earlier send of its key; `answered`, any other 2xx (petstore
 * api); `failed`, refused by the service (its status); `unknown`, sent with no answer that
 * says; `unsent`, never reached the service; `refused`, stopped by the agent-write policy;
 * `declined`, not confirmed by the person; `expected`, refused by the service as a check
 * (smoke) sent it to be: a request made wrong on purpose.
 */
export const HISTORY_OUTCOMES = [
  'created',
  'queued',
  'replayed',
  'answered',
  'failed',
  'unknown',
  'unsent',
  'refused',
  'declined',
  'expected',
] as const;
export type HistoryOutcome = (typeof HISTORY_OUTCOMES)[number];

/** A write a front end refused before sending it (an agent's, by the write policy). */
export interface RefusedWrite {
  outcome: 'refused' | 'declined';
  operation: string;
  method: string;
  /** Under the service's URL (`pets`) or its quickstart URL (`quickstart:messages`). */
  path: string;
  sent: string | undefined;
  error: string;
}
