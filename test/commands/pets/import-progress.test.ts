import { describe, expect, it } from 'vitest';
import { Ledger } from '../../../src/bulk/ledger.js';
import { bulkProgress } from '../../../src/commands/pets/import-progress.js';
import { Progress, duration } from '../../../src/output/progress.js';

function clock() {
  const time = { now: 0 };
  return { time, now: () => time.now };
}

describe('the bulk progress line', () => {
  it('counts created, failed and unknown of the total, with the rate and the time left', () => {
    const drawn: (string | undefined)[] = [];
    const { time, now } = clock();
    const progress = new Progress((text) => drawn.push(text), now);
    const ledger = new Ledger(2000, 2000);
    const settled = bulkProgress(progress, 2000);
    // One record a millisecond: 1,000/s; drawn at 1 ms, 101 ms, … 1,001 ms.
    for (let id = 1; id <= 1001; id++) {
      time.now = id;
      if (id === 500) ledger.failed(499, new Error('refused'));
      else if (id === 600) ledger.outcomeUnknown(599);
      else ledger.created({ id, name: `p${id}`, categoryId: 1 }, false);
      settled(ledger);
    }
    expect(drawn.at(-1)).toBe('created 999 · failed 1 · unknown 1 · of 2,000 · 1,000/s · ETA 1s');
  });

  it('redraws at most ten times a second, and the end clears it', () => {
    const drawn: (string | undefined)[] = [];
    const { time, now } = clock();
    const progress = new Progress((text) => drawn.push(text), now);
    const ledger = new Ledger(100_000, 100_000);
    const settled = bulkProgress(progress, 100_000);
    for (let id = 1; id <= 10_000; id++) {
      time.now = id / 10; // 10,000 records in one second
      ledger.created({ id, name: 'p', categoryId: 1 }, false);
      settled(ledger);
    }
    expect(drawn.length).toBeLessThanOrEqual(11);
    expect(drawn.length).toBeGreaterThanOrEqual(10);
    progress.done();
    expect(drawn.at(-1)).toBeUndefined();
  });

  it('once the run is stopping, says so instead of a rate and a time left', () => {
    const drawn: (string | undefined)[] = [];
    const progress = new Progress(
      (text) => drawn.push(text),
      () => 500,
    );
    const ledger = new Ledger(100, 100);
    ledger.created({ id: 1, name: 'p', categoryId: 1 }, false);
    bulkProgress(progress, 100)(ledger, { stopping: true, inFlight: 3 });
    expect(drawn).toEqual(['stopping: 3 in flight · created 1 · failed 0 · unknown 0 · of 100']);
  });

  it('draws nothing when progress is off', () => {
    const ledger = new Ledger(1, 1);
    const settled = bulkProgress(new Progress(undefined), 1);
    ledger.created({ id: 1, name: 'p', categoryId: 1 }, false);
    expect(() => settled(ledger)).not.toThrow();
  });

  it('writes times a person reads at a glance', () => {
    expect([0, 59.4, 65, 3599, 7440].map(duration)).toEqual([
      '0s',
      '59s',
      '1m05s',
      '59m59s',
      '2h04m',
    ]);
  });
});
