import { InterruptedError } from '../core/errors.js';
import type { SignalSource } from '../core/stop.js';

/**
 * Stops a run while it reads and checks its input, before anything is sent: the first SIGINT
 * or SIGTERM (or an agent's cancelled call) ends the reading at the next chunk, or at once when
 * standard input has nothing to give, so the run can remove its draft journal and its copy of
 * standard input and say it was interrupted, instead of the process ending where it stood.
 */
export class StopReading {
  private error: InterruptedError | undefined;
  /** Ends the read now waiting, if any: one at a time, so nothing builds up chunk by chunk. */
  private interruptRead: ((error: Error) => void) | undefined;
  private readonly stopListening: () => void;
  private readonly stopCancel: () => void;

  /** `stopped` says, after the signal's name, what was being done and what it left. */
  constructor(signals: SignalSource, cancel: AbortSignal | undefined, stopped: string) {
    const stop = (signal: 'SIGINT' | 'SIGTERM') => {
      this.error ??= new InterruptedError(`${signal}: ${stopped}`, { signal });
      this.interruptRead?.(this.error);
    };
    this.stopListening = signals.onSignal(stop);
    const cancelled = () => stop('SIGINT');
    if (cancel?.aborted === true) cancelled();
    cancel?.addEventListener('abort', cancelled, { once: true });
    this.stopCancel = () => cancel?.removeEventListener('abort', cancelled);
  }

  /** The bytes as they come, until a stop: then the reading throws the interruption. */
  async *bytes(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
    const iterator = chunks[Symbol.asyncIterator]();
    try {
      for (;;) {
        this.throwIfStopped();
        // Not Promise.race with one promise of the stop: each race would leave a reaction on
        // it holding its chunk until the run ends (the whole input, in memory).
        const next = await new Promise<IteratorResult<Uint8Array>>((resolve, reject) => {
          this.interruptRead = reject;
          iterator.next().then(resolve, reject);
        });
        this.interruptRead = undefined;
        if (next.done === true) return;
        yield next.value;
      }
    } finally {
      // A read still pending is left to the stream being destroyed with the process.
      if (this.error === undefined) await iterator.return?.();
    }
  }

  /** Throws the interruption if a stop came (while the service was reached, say). */
  throwIfStopped(): void {
    if (this.error !== undefined) throw this.error;
  }

  /** Stops listening: from here the run's own handling of signals takes over. */
  dispose(): void {
    this.stopListening();
    this.stopCancel();
  }
}
