import { count, duration, type Progress } from '../../output/progress.js';
import type { Ledger } from '../../bulk/ledger.js';

/**
 * The progress line of a bulk run: what became of the records so far, of how many, the rate
 * of this run's requests and the time left at that rate. E.g.
 * "created 1,204 · failed 2 · unknown 0 · of 2,000 · 812/s · ETA 1s".
 */
export function bulkProgress(
  progress: Progress,
  toSend: number,
): (ledger: Ledger, run?: { stopping: boolean; inFlight: number }) => void {
  let settled = 0;
  return (ledger, run) => {
    settled++;
    progress.update((elapsed) => {
      const counts = ledger.counts();
      const created = counts.createdNow + counts.replayed + counts.createdEarlier;
      const outcomes = [
        `created ${count(created)}`,
        `failed ${count(counts.failed)}`,
        `unknown ${count(counts.unknown)}`,
        `of ${count(counts.records)}`,
      ];
      // Stopping (a first Ctrl-C, --fail-fast): no more requests start, so no rate or ETA.
      if (run?.stopping)
        return [`stopping: ${count(run.inFlight)} in flight`, ...outcomes].join(' · ');
      const rate = elapsed > 0 ? settled / elapsed : 0;
      const eta = rate > 0 ? ` · ETA ${duration((toSend - settled) / rate)}` : '';
      return [...outcomes, `${count(Math.round(rate))}/s${eta}`].join(' · ');
    });
  };
}
