/** How often a progress line is redrawn at most: ten times a second. */
const REDRAW_MS = 100;

/**
 * A live progress line for long work (npm's, docker's): redrawn at most ten times a second
 * through `draw`, gone when the work ends. Off (a no-op) when progress is not wanted.
 */
export class Progress {
  private last = Number.NEGATIVE_INFINITY;
  private readonly started: number;

  constructor(
    private readonly draw: ((text: string | undefined) => void) | undefined,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.started = now();
  }

  /** Redraws with the text `render` makes, unless the line was drawn under 100 ms ago. */
  update(render: (elapsedSeconds: number) => string): void {
    if (!this.draw) return;
    const now = this.now();
    if (now - this.last < REDRAW_MS) return;
    this.last = now;
    this.draw(render((now - this.started) / 1000));
  }

  private readonly whenDone: (() => void)[] = [];

  /** Clears the line. */
  done(): void {
    this.draw?.(undefined);
    for (const then of this.whenDone.splice(0)) then();
  }

  /** Runs `then` once the progress is done (to release what was held for it). */
  onDone(then: () => void): void {
    this.whenDone.push(then);
  }
}

/** 1234567 -> "1,234,567". */
export function count(n: number): string {
  return n.toLocaleString('en-US');
}

/** Seconds as "12s", "3m05s", "2h04m". */
export function duration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}
