/**
 * Keeps V8's heap near what a run holds, not what it has allocated. Left alone, V8 sizes both
 * generations for a machine with gigabytes to spare: it doubles the young one (up to 64 MiB a
 * half) each time enough objects have survived its collections, and lets the old one grow to
 * several times what is live before it collects. A run that streams millions of short-lived
 * records (an import, a long listing) then ends with 130 MB of young space and 40 of old for a
 * live heap of 15: memory would grow with the run's length, not with what it holds. Measured
 * on imports of 20,000 to 1,000,000 records, as fast as before (docs/decisions/0011).
 */

/** How far V8 lets the old generation grow past what is live after a full collection. */
const OLD_GROWTH_PERCENT = 50;
/** The young generation grows to this, then no further. */
const YOUNG_MAX_BYTES = 8 * 1024 * 1024;

let bounded = false;

export function boundHeap(): void {
  // Once a process: the flags are the process's.
  if (bounded) return;
  bounded = true;
  const v8 = process.getBuiltinModule('node:v8');
  // Both flags are read by V8 each time it sizes a generation, so they hold from now on.
  // eslint-disable-next-line no-restricted-syntax -- V8's own flag, not petstore's
  v8.setFlagsFromString(`--heap-growing-percent=${OLD_GROWTH_PERCENT}`);
  const { PerformanceObserver } = process.getBuiltinModule('node:perf_hooks');
  const observer = new PerformanceObserver(() => {
    const young = v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
    if (young === undefined || young.space_size < YOUNG_MAX_BYTES) return;
    // eslint-disable-next-line no-restricted-syntax -- V8's own flag, not petstore's
    v8.setFlagsFromString('--semi-space-growth-factor=1');
    observer.disconnect();
  });
  observer.observe({ entryTypes: ['gc'] });
}
