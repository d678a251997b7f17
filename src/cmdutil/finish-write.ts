import { resendHint, type UnknownOutcome } from '../core/unknown-outcome.js';
import type { RunOutput, RunState } from '../context/context.js';
import { InterruptedError } from '../core/errors.js';
import type { StopSignal } from '../core/io.js';
import { StopController } from '../core/stop.js';

/**
 * Runs one write so that Ctrl-C or SIGTERM cannot leave its outcome unsaid. A first signal
 * lets the request in flight finish (within --timeout) so its result is still shown, then the
 * run ends with 130/143; a second stops at once, saying the outcome is unknown.
 */
export async function finishWrite<T>(
  ctx: RunOutput & RunState,
  write: () => Promise<T>,
  unknown: UnknownOutcome,
  /** The write's Idempotency-Key, so the user can send it again safely. */
  idempotencyKey: string,
): Promise<{ result: T; interrupted: StopSignal | undefined }> {
  const stop = new StopController(ctx.io, {
    onFirst: (signal) =>
      ctx.io.stderr.write(
        `petstore: ${signal}: waiting for the request in flight to finish (send it again to stop at once)\n`,
      ),
    onSecond: (signal) =>
      new InterruptedError(
        `stopped at once on a second ${signal}: the outcome is unknown, ${unknown.what} (Idempotency-Key ${idempotencyKey})`,
        { signal, immediate: true, hint: resendHint(unknown, idempotencyKey) },
      ),
  });
  try {
    const result = await Promise.race([write(), stop.abandoned]);
    // The write took effect: what it answered is printed, whatever --query makes of it.
    ctx.tookEffect();
    return { result, interrupted: stop.signal };
  } finally {
    stop.dispose();
  }
}

/** After a write that finished despite a signal: end the run as the signal asked. */
export function endInterrupted(signal: StopSignal, done: string): never {
  throw new InterruptedError(`${signal}: ${done}; stopped`, { signal });
}
