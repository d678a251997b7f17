/**
 * A service's rate limit, read ahead of being refused: the IETF RateLimit header fields
 * (draft-ietf-httpapi-ratelimit-headers: `RateLimit-Policy: "p";q=100;w=60` and
 * `RateLimit: "p";r=42;t=17`) say how many requests are left (r) and in how many seconds the
 * quota comes back (t). A client's requests share one pacer: once none is left, the next waits
 * for the quota to come back instead of being refused with 429, then goes. A service that sends
 * no such fields is never waited for.
 */
export class Pacer {
  /** Requests the service said are left, less those sent since it said so. */
  private left: number | undefined;
  /** When the quota comes back (ms since the epoch). */
  private resetAt = 0;
  private inFlight = 0;

  constructor(
    private readonly clock: { now: () => number; sleep: (ms: number) => Promise<void> },
  ) {}

  /**
   * Waits, if the quota is spent, until it comes back (at most `mostMs`; a longer wait is the
   * caller's to refuse: it is returned, not waited). Then counts the request as sent.
   */
  async take(mostMs: number): Promise<number | undefined> {
    if (this.left !== undefined && this.left <= 0) {
      const waitMs = this.resetAt - this.clock.now();
      if (waitMs > mostMs) return waitMs;
      if (waitMs > 0) await this.clock.sleep(waitMs);
      // The quota has come back: how much of it is unknown until the next answer says.
      this.left = undefined;
    }
    if (this.left !== undefined) this.left--;
    this.inFlight++;
    return undefined;
  }

  /** An answer came: what its RateLimit field says is left, less those still in flight. */
  learn(headers: Record<string, string | undefined>): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    const field = parseRateLimit(headers.ratelimit);
    if (field === undefined) return;
    this.left = Math.max(0, field.remaining - this.inFlight);
    this.resetAt = this.clock.now() + field.resetSeconds * 1000;
  }

  /** A request that got no answer: no longer in flight. */
  forget(): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
  }
}

/** `"default";r=42;t=17` (the first policy's item): remaining and reset, else undefined. */
export function parseRateLimit(
  text: string | undefined,
): { remaining: number; resetSeconds: number } | undefined {
  if (text === undefined) return undefined;
  const first = text.split(',')[0]!;
  const remaining = /;\s*r=(\d+)/.exec(first)?.[1];
  const reset = /;\s*t=(\d+)/.exec(first)?.[1];
  if (remaining === undefined) return undefined;
  return { remaining: Number(remaining), resetSeconds: reset === undefined ? 1 : Number(reset) };
}
