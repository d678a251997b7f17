import type { OptionName } from '../../core/phrase.js';
import { parseDuration } from '../../core/duration.js';
import type { StopController } from '../../core/stop.js';

export type Outcome = 'pass' | 'fail' | 'skip' | 'info';

/** One check's result in one round. */
export interface CheckResult {
  name: string;
  outcome: Outcome;
  durationMs: number;
  detail: string;
  /** A check skipped for want of an option: the option that runs it (worded by front ends). */
  needs?: OptionName;
}

/** A check over every round: how often it passed, and how long it took. */
export interface CheckSummary {
  name: string;
  runs: number;
  passed: number;
  failed: number;
  skipped: number;
  info: number;
  /** Passed of those that ran to a verdict (skips and info left out), in percent. */
  passRate: number | null;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  /** The last failure's detail, if any. */
  lastFailure: string | null;
}

/** The value at fraction `q` of the sorted durations (nearest rank). */
function percentile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
}

export function summarize(rounds: readonly (readonly CheckResult[])[]): CheckSummary[] {
  const byName = new Map<string, CheckResult[]>();
  for (const round of rounds) {
    for (const result of round) {
      const seen = byName.get(result.name) ?? [];
      seen.push(result);
      byName.set(result.name, seen);
    }
  }
  return [...byName].map(([name, results]) => {
    const count = (outcome: Outcome) => results.filter((r) => r.outcome === outcome).length;
    const timed = results.filter((r) => r.outcome !== 'skip').map((r) => r.durationMs);
    const sorted = [...timed].sort((a, b) => a - b);
    const passed = count('pass');
    const failed = count('fail');
    return {
      name,
      runs: results.length,
      passed,
      failed,
      skipped: count('skip'),
      info: count('info'),
      passRate: passed + failed === 0 ? null : Math.round((1000 * passed) / (passed + failed)) / 10,
      p50Ms: percentile(sorted, 0.5),
      p95Ms: percentile(sorted, 0.95),
      maxMs: sorted.at(-1) ?? 0,
      lastFailure: results.findLast((r) => r.outcome === 'fail')?.detail ?? null,
    };
  });
}

/** A round's counts, its time and the checks that failed: what roundLine says, as fields. */
export function roundFields(round: number, results: readonly CheckResult[], of?: number) {
  const count = (outcome: Outcome) => results.filter((r) => r.outcome === outcome).length;
  return {
    round,
    of: of ?? null,
    passed: count('pass'),
    failed: count('fail'),
    skipped: count('skip'),
    info: count('info'),
    ms: results.reduce((sum, r) => sum + r.durationMs, 0),
    failedChecks: results.filter((r) => r.outcome === 'fail').map((r) => r.name),
  };
}

/** "round 3: 7 passed, 1 failed, 2 skipped, 3 info · 143 ms": one line per round. */
export function roundLine(round: number, results: readonly CheckResult[], of?: number): string {
  const count = (outcome: Outcome) => results.filter((r) => r.outcome === outcome).length;
  const total = results.reduce((sum, r) => sum + r.durationMs, 0);
  const failed = results.filter((r) => r.outcome === 'fail').map((r) => r.name);
  return [
    `round ${round}${of === undefined ? '' : `/${of}`}: ${count('pass')} passed, ${count('fail')} failed, ${count('skip')} skipped, ${count('info')} info`,
    `${total} ms`,
    ...(failed.length ? [`failed: ${failed.join(', ')}`] : []),
  ].join(' · ');
}

/**
 * Waits `ms`, or less if the run is told to stop (a first Ctrl-C): the canary's pause between
 * rounds ends at once, and the summary follows.
 */
export async function pause(ms: number, stop: StopController): Promise<void> {
  const step = 50;
  for (let waited = 0; waited < ms && !stop.stopping; waited += step) {
    await Promise.race([
      new Promise((resolve) => setTimeout(resolve, Math.min(step, ms - waited))),
      stop.abandoned,
    ]);
  }
}

/** A smoke interval: "1s", "500ms", "2m", "1.5s", up to a day; undefined when it is none. */
export function parseInterval(text: string): number | undefined {
  return parseDuration(text, 24 * 3_600_000);
}
