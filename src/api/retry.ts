import { parseHttpDate } from '../core/http-date.js';
/** Statuses worth another try for a safe request: rate limited or a passing gateway fault. */
/** Longest Retry-After the tool will wait; beyond it, the error is reported instead. */
export const MAX_RETRY_AFTER_MS = 30_000;

export const RETRYABLE_STATUSES = new Set([429, 502, 503, 504]);

export interface BackoffPolicy {
  baseMs: number;
  maxMs: number;
  random: () => number;
}

export const DEFAULT_BACKOFF: Omit<BackoffPolicy, 'random'> = { baseMs: 500, maxMs: 30_000 };

/** Exponential backoff with jitter: a delay between half and all of base * 2^attempt, capped. */
export function backoffDelay(attempt: number, policy: BackoffPolicy): number {
  const ceiling = Math.min(policy.maxMs, policy.baseMs * 2 ** attempt);
  return Math.round(ceiling / 2 + (ceiling / 2) * policy.random());
}

/**
 * Retry-After as milliseconds from now: delta-seconds or an HTTP date. Undefined when absent or
 * unparsable, so the caller falls back to backoff.
 */
export function parseRetryAfter(header: string | undefined, now: number): number | undefined {
  if (header === undefined) return undefined;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = parseHttpDate(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}
