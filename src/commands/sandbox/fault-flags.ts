import { randomInt } from 'node:crypto';
import { UsageError } from '../../core/errors.js';
import { parseDecimal, parseWholeNumber } from '../../core/parse-number.js';
import type { FaultSettings } from '../../sandbox/faults.js';

/** The fault flags of `sandbox serve`, as commander gives them. */
export interface FaultFlags {
  latency?: string;
  failRate?: string;
  failStatus?: string;
  rateLimit?: string;
  dropAfterSend?: string;
  seed?: string;
}

const MAX_LATENCY_MS = { min: 0, max: 600_000 };
const SHARE = { min: 0, max: 1 };
const SEED = { min: 0, max: 2 ** 32 - 1 };

/** `--latency MS` or `--latency MIN-MAX`. */
function parseLatency(text: string): { min: number; max: number } {
  const [low, high, ...rest] = text.split('-');
  if (rest.length > 0 || low === undefined) {
    throw new UsageError(`--latency must be MS or MIN-MAX in milliseconds, got "${text}"`);
  }
  const min = parseWholeNumber(low, '--latency', MAX_LATENCY_MS);
  const max = high === undefined ? min : parseWholeNumber(high, '--latency', MAX_LATENCY_MS);
  if (max < min) {
    throw new UsageError(`--latency ${text}: the range must go from low to high`, {
      hint: `Did you mean --latency ${max}-${min}?`,
    });
  }
  return { min, max };
}

/** `--rate-limit N` or `--rate-limit N/s`. */
function parseRate(text: string): number {
  return parseWholeNumber(text.replace(/\/s$/, ''), '--rate-limit', { min: 1, max: 1_000_000 });
}

/** Fault settings, or undefined when no fault is asked for (a seed alone changes nothing). */
export function toFaultSettings(flags: FaultFlags): FaultSettings | undefined {
  if (flags.failStatus !== undefined && flags.failRate === undefined) {
    throw new UsageError('--fail-status needs --fail-rate P (the share of requests to fail)');
  }
  const settings: FaultSettings = {
    latencyMs: flags.latency === undefined ? undefined : parseLatency(flags.latency),
    failRate:
      flags.failRate === undefined ? undefined : parseDecimal(flags.failRate, '--fail-rate', SHARE),
    failStatus:
      flags.failStatus === undefined
        ? undefined
        : parseWholeNumber(flags.failStatus, '--fail-status', { min: 400, max: 599 }),
    rateLimitPerSecond: flags.rateLimit === undefined ? undefined : parseRate(flags.rateLimit),
    dropAfterSend:
      flags.dropAfterSend === undefined
        ? undefined
        : parseDecimal(flags.dropAfterSend, '--drop-after-send', SHARE),
    seed:
      flags.seed === undefined ? randomInt(SEED.max) : parseWholeNumber(flags.seed, '--seed', SEED),
  };
  const anyFault =
    settings.latencyMs !== undefined ||
    settings.failRate !== undefined ||
    settings.rateLimitPerSecond !== undefined ||
    settings.dropAfterSend !== undefined;
  return anyFault ? settings : undefined;
}
