import type { IO, StopSignal } from './io.js';

/** Where stop signals come from: the process (SIGINT, SIGTERM), or a test. */
export type SignalSource = Pick<IO, 'onSignal'>;

/**
 * How a write, or a run of many, stops. The first signal drains: nothing new starts, what is in
 * flight finishes and is recorded (`onFirst` says so on stderr). The second abandons at once:
 * `abandoned` rejects with the error `onSecond` makes. Other reasons to stop (a failure every
 * record would meet, --fail-fast, a closed stdout) drain in the same way, without a signal.
 */
export class StopController<Reason extends string = never> {
  /** Why the run starts nothing new; the first reason given wins. */
  private why: Reason | 'signal' | undefined;
  private received: StopSignal | undefined;
  private abandon!: (error: Error) => void;
  readonly abandoned: Promise<never>;
  private readonly stopListening: () => void;

  constructor(
    source: SignalSource,
    handlers: { onFirst: (signal: StopSignal) => void; onSecond: (signal: StopSignal) => Error },
  ) {
    this.abandoned = new Promise<never>((_resolve, reject) => (this.abandon = reject));
    // Never left unhandled: a caller that is not racing against it has nothing to abandon.
    this.abandoned.catch(() => undefined);
    this.stopListening = source.onSignal((signal) => {
      if (this.received === undefined) {
        this.received = signal;
        this.why ??= 'signal';
        handlers.onFirst(signal);
      } else this.abandon(handlers.onSecond(signal));
    });
  }

  /**
   * Stops (as `stop(reason)`) when `signal` aborts, or at once if it has; `onStop` says so.
   * Returns the function that stops listening.
   */
  stopWhen(signal: AbortSignal | undefined, reason: Reason, onStop: () => void): () => void {
    if (signal === undefined) return () => undefined;
    const stop = () => {
      if (this.stopping) return;
      this.stop(reason);
      onStop();
    };
    if (signal.aborted) stop();
    else signal.addEventListener('abort', stop, { once: true });
    return () => signal.removeEventListener('abort', stop);
  }

  /** Starts nothing new from now on, for this reason unless another came first. */
  stop(reason: Reason): void {
    this.why ??= reason;
  }

  get stopping(): boolean {
    return this.why !== undefined;
  }

  get reason(): Reason | 'signal' | undefined {
    return this.why;
  }

  /** The first signal received, if any. */
  get signal(): StopSignal | undefined {
    return this.received;
  }

  /** Stops listening: later signals act as they would without this controller. */
  dispose(): void {
    this.stopListening();
  }
}
