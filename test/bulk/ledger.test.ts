import { describe, expect, it } from 'vitest';
import { Ledger, positions } from '../../src/bulk/ledger.js';
import { ApiError, BulkFailedError, NetworkError } from '../../src/core/errors.js';
import { exitCodeFor } from '../../src/output/report-error.js';

describe('a run summary', () => {
  it('names at most ten records of a kind, and counts the rest', () => {
    expect(positions([2, 0, 1])).toBe('1, 2, 3');
    expect(positions(Array.from({ length: 534 }, (_, i) => 533 - i))).toBe(
      '1, 2, 3, 4, 5, 6, 7, 8, 9, 10 and 524 more',
    );
    const ledger = new Ledger(3000, 3000);
    for (let index = 0; index < 534; index++) ledger.outcomeUnknown(index * 5);
    const summary = ledger.summary('profile faulty');
    expect(summary).toContain(
      '534 unknown (record 1, 6, 11, 16, 21, 26, 31, 36, 41, 46 and 524 more)',
    );
    expect(summary.length).toBeLessThan(200);
  });
});

describe('the first problem of a run', () => {
  const refused = new ApiError(422, 'invalid', 'bad category');
  const timedOut = new NetworkError('timeout', 'timed out', { outcomeUnknown: true });

  it('is the error of the first record in input order, failed or unknown', () => {
    const ledger = new Ledger(5, 5);
    ledger.failed(3, refused);
    ledger.outcomeUnknown(1, timedOut);
    expect(ledger.firstProblem()).toBe(timedOut);
    expect(exitCodeFor(new BulkFailedError('', ledger.firstProblem()))).toBe(7);

    const refusedFirst = new Ledger(5, 5);
    refusedFirst.outcomeUnknown(4, timedOut);
    refusedFirst.failed(2, refused);
    expect(refusedFirst.firstProblem()).toBe(refused);
    expect(exitCodeFor(new BulkFailedError('', refusedFirst.firstProblem()))).toBe(5);
  });

  it('is none for a record an earlier run left unknown, which maps to the network code', () => {
    const ledger = new Ledger(3, 1, { created: 0, failed: 0, unknown: 1 });
    // Passed as the run reads the input: before the record it sends.
    ledger.earlierOutcome({ index: 0, name: 'A', error: undefined });
    ledger.failed(2, refused);
    expect(ledger.firstProblem()).toBeUndefined();
    expect(exitCodeFor(new BulkFailedError('', undefined))).toBe(7);
    expect(ledger.summary('t')).toContain('1 failed, 1 unknown (record 1)');
  });

  it("is an earlier run's refusal, by its summary, when that record comes first", () => {
    const ledger = new Ledger(3, 1, { created: 0, failed: 1, unknown: 0 });
    const summary = { code: 'invalid', message: 'bad category', status: 422 };
    ledger.earlierOutcome({ index: 0, name: 'A', error: summary });
    ledger.outcomeUnknown(2, new NetworkError('timeout', 'timed out', { outcomeUnknown: true }));
    expect(exitCodeFor(new BulkFailedError('', ledger.firstProblem()))).toBe(5);
    expect(ledger.earlierListed).toEqual([{ index: 0, name: 'A', error: summary }]);
  });
});
