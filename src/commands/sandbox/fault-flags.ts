import { randomInt } from 'node:crypto';
import type { Command, OptionValues } from '@commander-js/extra-typings';
import type { FlagsOf } from '../../cmdutil/run-verb.js';
import { UsageError } from '../../core/errors.js';
import { parseDecimal, parseWholeNumber } from '../../core/parse-number.js';
import type { FaultSettings } from '../../sandbox/faults.js';

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

/** A share of requests, 0 to 1, for the flag named. */
const shareFlag = (flag: string) => (text: string) => parseDecimal(text, flag, SHARE);

/** `sandbox serve`'s fault flags, declared once (name, help, parser), added to its command. */
export function withFaultFlags<Args extends unknown[], Opts extends OptionValues>(
  command: Command<Args, Opts>,
) {
  return command
    .option('--latency <ms>', 'fault: wait MS, or MIN-MAX ms, before each request', parseLatency)
    .option(
      '--fail-rate <p>',
      'fault: fail this share (0..1) of requests, doing nothing',
      shareFlag('--fail-rate'),
    )
    .option(
      '--fail-status <code>',
      'the status --fail-rate answers with (default: 503)',
      (text: string) => parseWholeNumber(text, '--fail-status', { min: 400, max: 599 }),
    )
    .option(
      '--rate-limit <n>',
      'fault: take N requests/s, said in RateLimit headers; 429 with Retry-After past them',
      parseRate,
    )
    .option(
      '--drop-after-send <p>',
      'fault: this share (0..1) of writes take effect, then the connection is reset unanswered',
      shareFlag('--drop-after-send'),
    )
    .option(
      '--seed <n>',
      'seed for the fault draws, to repeat a run (default: random, shown)',
      (text: string) => parseWholeNumber(text, '--seed', SEED),
    );
}

/** The fault flags as parsed. */
export type FaultFlags = Partial<
  Pick<
    FlagsOf<ReturnType<typeof withFaultFlags<[], { none?: never }>>>,
    'latency' | 'failRate' | 'failStatus' | 'rateLimit' | 'dropAfterSend' | 'seed'
  >
>;

/** Fault settings, or undefined when no fault is asked for (a seed alone changes nothing). */
export function toFaultSettings(flags: FaultFlags): FaultSettings | undefined {
  if (flags.failStatus !== undefined && flags.failRate === undefined) {
    throw new UsageError('--fail-status needs --fail-rate P (the share of requests to fail)');
  }
  const settings: FaultSettings = {
    latencyMs: flags.latency,
    failRate: flags.failRate,
    failStatus: flags.failStatus,
    rateLimitPerSecond: flags.rateLimit,
    dropAfterSend: flags.dropAfterSend,
    seed: flags.seed ?? randomInt(SEED.max),
  };
  const anyFault =
    settings.latencyMs !== undefined ||
    settings.failRate !== undefined ||
    settings.rateLimitPerSecond !== undefined ||
    settings.dropAfterSend !== undefined;
  return anyFault ? settings : undefined;
}
