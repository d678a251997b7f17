import type { OptionName } from '../../core/phrase.js';
import type { PetstoreClient } from '../../api/client.js';
import { InterruptedError, PetstoreError, type NetworkError } from '../../core/errors.js';
import { cannotReachService } from '../../api/network-errors.js';
import type { Pet } from '../../core/interface.js';
import type { StopController } from '../../core/stop.js';
import { CheckInfo, SmokeCalls } from './calls.js';
import { pause, type CheckResult } from './canary.js';
import { SMOKE_CHECKS, type SmokeEnvironment, type SmokeTarget } from './checks.js';

/** What to check, how often, and how fast. */
export interface SmokeRunOptions {
  /** Also run the checks that add a pet and send a message. */
  allowWrites: boolean;
  /** A check slower than this fails. */
  maxLatencyMs: number | undefined;
  /** Rounds to run (a canary); with `everyMs` alone, until interrupted. */
  repeat: number | undefined;
  /** The pause between rounds. */
  everyMs: number | undefined;
}

export interface SmokeRunDeps {
  /** The client of the deployment, with its key. */
  client: PetstoreClient;
  /** The same deployment, with a key it must refuse. */
  unauthenticated: PetstoreClient;
  target: SmokeTarget;
  /** The run's signals: a first ends the round (a write in flight is waited for). */
  stop: StopController;
  /** Resolves at the first signal: a read in flight is abandoned at once. */
  interrupted: Promise<'interrupted'>;
}

export interface SmokeRunOutcome {
  /** Each round's results, check by check. */
  results: CheckResult[][];
  /** The pets the checks added. */
  created: Pet[];
  /** The service answered 401 to the run's own key: the checks could not judge it. */
  keyRefused: boolean;
  /**
   * Why the service could not be reached (no connection, no secure one), if a check found it
   * so: the checks after it in that round were not run, as each would fail the same way.
   */
  unreachable: NetworkError | undefined;
}

/** Said of a check left unrun because the service could not be reached. */
export const UNREACHABLE = 'not run: the service cannot be reached';

/** Said of a check a signal left unrun, or ended while it waited for a read. */
export const INTERRUPTED = 'not run: interrupted';

/**
 * Runs each check once, in order. A first signal ends the round: a read in flight is abandoned
 * at once (nothing is lost by it), a write is waited for; the checks left are skipped.
 */
async function runRound(
  env: SmokeEnvironment,
  options: SmokeRunOptions,
  stop: StopController,
  interrupted: Promise<'interrupted'>,
): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  for (const check of SMOKE_CHECKS) {
    if (stop.stopping || env.unreachable !== undefined) {
      const detail = stop.stopping ? INTERRUPTED : UNREACHABLE;
      results.push({ name: check.name, outcome: 'skip', durationMs: 0, detail });
      continue;
    }
    const started = performance.now();
    let outcome: CheckResult['outcome'] = 'pass';
    let detail: string;
    let needs: OptionName | undefined;
    if (check.writes && !options.allowWrites) {
      outcome = 'skip';
      detail = 'writes to the service';
      needs = 'allowWrites';
    } else {
      try {
        const ends = check.writes ? [stop.abandoned] : [stop.abandoned, interrupted];
        const ended = await Promise.race([check.run(env), ...ends]);
        detail = ended === 'interrupted' ? `skip: ${INTERRUPTED}` : ended;
        if (detail.startsWith('skip: ')) {
          outcome = 'skip';
          detail = detail.slice('skip: '.length);
        }
      } catch (error) {
        if (error instanceof InterruptedError) throw error;
        if (cannotReachService(error)) env.unreachable = error as NetworkError;
        outcome = error instanceof CheckInfo ? 'info' : 'fail';
        detail = error instanceof Error ? error.message : String(error);
        if (error instanceof PetstoreError && error.status) detail += ` (HTTP ${error.status})`;
      }
    }
    const durationMs = Math.round(performance.now() - started);
    const { maxLatencyMs } = options;
    // Not an info: what the interface leaves open is never a failure, however long it took.
    const timed = outcome === 'pass' || outcome === 'fail';
    if (timed && maxLatencyMs !== undefined && durationMs > maxLatencyMs) {
      outcome = 'fail';
      detail = `took ${durationMs} ms, over the ${maxLatencyMs} ms allowed (${detail})`;
    }
    results.push({ name: check.name, outcome, durationMs, detail, ...(needs && { needs }) });
  }
  return results;
}

/**
 * Runs the smoke checks against a deployment: one round, or rounds as a canary (`repeat`,
 * `everyMs`), until done or a first signal. `onRound` hears each round's results as it ends.
 */
export async function runSmokeRounds(
  deps: SmokeRunDeps,
  options: SmokeRunOptions,
  onRound: (round: number, results: CheckResult[]) => void,
): Promise<SmokeRunOutcome> {
  const { stop } = deps;
  const rounds = options.repeat ?? (options.everyMs !== undefined ? Infinity : 1);
  const outcome: SmokeRunOutcome = {
    results: [],
    created: [],
    keyRefused: false,
    unreachable: undefined,
  };
  // Only a canary that runs until stopped (--every alone) goes on past an outage: watching
  // one is its job. Any other run ends with it.
  const untilStopped = options.repeat === undefined && options.everyMs !== undefined;
  for (let round = 1; round <= rounds && !stop.stopping; round++) {
    const env: SmokeEnvironment = {
      calls: new SmokeCalls(deps.client, () => (outcome.keyRefused = true)),
      unauthenticated: new SmokeCalls(deps.unauthenticated),
      target: deps.target,
      listed: [],
      created: [],
      unreachable: undefined,
    };
    const done = await runRound(env, options, stop, deps.interrupted);
    outcome.created.push(...env.created);
    outcome.results.push(done);
    outcome.unreachable = env.unreachable ?? outcome.unreachable;
    onRound(round, done);
    if (env.unreachable !== undefined && !untilStopped) break;
    // Between rounds: a first Ctrl-C ends the pause at once, and the loop.
    if (round < rounds && options.everyMs !== undefined) await pause(options.everyMs, stop);
  }
  return outcome;
}
