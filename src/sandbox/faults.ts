/**
 * Faults the sandbox can be asked to show, so users (and our tests) see how a script behaves
 * when the service misbehaves. Every decision is drawn from one seeded generator, so the same
 * seed gives the same decisions for the same sequence of requests.
 */
export interface FaultSettings {
  /** Each request waits this long (a range: uniformly within it) before it is handled. */
  latencyMs?: { min: number; max: number } | undefined;
  /** The share of requests (0..1) answered with `failStatus` and not handled. */
  failRate?: number | undefined;
  failStatus?: number | undefined;
  /** Requests per second over which the sandbox answers 429 with Retry-After. */
  rateLimitPerSecond?: number | undefined;
  /** The share of POSTs (0..1) that take effect, then have their connection reset unanswered. */
  dropAfterSend?: number | undefined;
  seed: number;
}

export const DEFAULT_FAIL_STATUS = 503;

/** A small, fast generator with a 32-bit state (mulberry32): enough for fault decisions. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class Faults {
  private readonly random: () => number;
  /** Token bucket: `rateLimitPerSecond` tokens a second, holding at most one second's worth. */
  private tokens: number;
  private refilledAt: number;

  constructor(
    readonly settings: FaultSettings,
    private readonly clock: () => number = () => performance.now(),
  ) {
    this.random = seededRandom(settings.seed);
    this.tokens = settings.rateLimitPerSecond ?? 0;
    this.refilledAt = clock();
  }

  /** Undefined when the request may go on; else the seconds to tell the client to wait. */
  rateLimited(): number | undefined {
    const rate = this.settings.rateLimitPerSecond;
    if (rate === undefined) return undefined;
    const now = this.clock();
    this.tokens = Math.min(rate, this.tokens + ((now - this.refilledAt) / 1000) * rate);
    this.refilledAt = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return undefined;
    }
    return Math.max(1, Math.ceil((1 - this.tokens) / rate));
  }

  /**
   * What is left of the rate limit after the last request, in the IETF RateLimit header fields
   * (draft-ietf-httpapi-ratelimit-headers), for every answer: `RateLimit-Policy` names the
   * quota (N a second), `RateLimit` what is left (r) and in how many seconds more comes (t).
   * A client can pace itself by them instead of learning the limit by being refused.
   */
  rateLimitFields(): Record<string, string> {
    const rate = this.settings.rateLimitPerSecond;
    if (rate === undefined) return {};
    const left = Math.floor(this.tokens);
    const seconds = Math.max(
      1,
      Math.ceil((left >= 1 ? rate - this.tokens : 1 - this.tokens) / rate),
    );
    return {
      'ratelimit-policy': `"default";q=${rate};w=1`,
      ratelimit: `"default";r=${left};t=${seconds}`,
    };
  }

  /** How long this request waits before it is handled, in milliseconds. */
  latency(): number {
    const range = this.settings.latencyMs;
    if (!range) return 0;
    return range.min + Math.round((range.max - range.min) * this.random());
  }

  /** The status to fail this request with, or undefined to handle it. */
  failure(): number | undefined {
    const rate = this.settings.failRate;
    if (!rate || this.random() >= rate) return undefined;
    return this.settings.failStatus ?? DEFAULT_FAIL_STATUS;
  }

  /** Whether to reset the connection of a write that took effect, instead of answering. */
  dropsAnswer(): boolean {
    const rate = this.settings.dropAfterSend;
    return !!rate && this.random() < rate;
  }

  /** One line per fault that is on, for the serve banner. */
  describe(): string[] {
    const { latencyMs, failRate, failStatus, rateLimitPerSecond, dropAfterSend, seed } =
      this.settings;
    const lines: string[] = [];
    if (latencyMs) {
      const range =
        latencyMs.min === latencyMs.max ? `${latencyMs.min}` : `${latencyMs.min}-${latencyMs.max}`;
      lines.push(`latency ${range} ms before each request`);
    }
    if (failRate) {
      lines.push(
        `${percent(failRate)} of requests fail with ${failStatus ?? DEFAULT_FAIL_STATUS}, doing nothing`,
      );
    }
    if (rateLimitPerSecond !== undefined) {
      lines.push(`more than ${rateLimitPerSecond} requests/s answered 429 with Retry-After`);
    }
    if (dropAfterSend) {
      lines.push(
        `${percent(dropAfterSend)} of writes take effect, then the connection is reset unanswered`,
      );
    }
    if (lines.length > 0) lines.push(`seed ${seed} (give --seed ${seed} to draw the same faults)`);
    return lines;
  }
}

function percent(share: number): string {
  return `${Number((share * 100).toFixed(4))}%`;
}
