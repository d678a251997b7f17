import { resendHint, type UnknownOutcome } from '../core/unknown-outcome.js';
import type { Context } from '../context/context.js';
import { InterruptedError } from '../core/errors.js';
import type { StopSignal } from '../core/io.js';

/**
 * Runs one write so that Ctrl-C or SIGTERM cannot leave its outcome unsaid. A first signal
 * lets the request in flight finish (within --timeout) so its result is still shown, then the
 * run ends with 130/143; a second stops at once, saying the outcome is unknown.
 */
export async function finishWrite<T>(
  ctx: Context,
  write: () => Promise<T>,
  unknown: UnknownOutcome,
  /** The write's Idempotency-Key, so the user can send it again safely. */
  idempotencyKey: string,
): Promise<{ result: T; interrupted: StopSignal | undefined }> {
  let interrupted: StopSignal | undefined;
  let abandon!: (error: InterruptedError) => void;
  const abandoned = new Promise<never>((_resolve, reject) => (abandon = reject));
  const stopListening = ctx.io.onSignal((signal) => {
    if (interrupted === undefined) {
      interrupted = signal;
      ctx.io.stderr.write(
        `petstore: ${signal}: waiting for the request in flight to finish (send it again to stop at once)\n`,
      );
      return;
    }
    abandon(
      new InterruptedError(
        `stopped at once on a second ${signal}: the outcome is unknown, ${unknown.what} (Idempotency-Key ${idempotencyKey})`,
        {
          signal,
          immediate: true,
          hint: resendHint(unknown, idempotencyKey),
        },
      ),
    );
  });
  try {
    const result = await Promise.race([write(), abandoned]);
    return { result, interrupted };
  } finally {
    stopListening();
  }
}

/** After a write that finished despite a signal: end the run as the signal asked. */
export function endInterrupted(signal: StopSignal, done: string): never {
  throw new InterruptedError(`${signal}: ${done}; stopped`, { signal });
}
