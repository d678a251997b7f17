import { describe, expect, it } from 'vitest';
import { Ledger, positions } from '../../src/bulk/ledger.js';

describe('a run summary', () => {
  it('names at most ten records of a kind, and counts the rest', () => {
    expect(positions([2, 0, 1])).toBe('1, 2, 3');
    expect(positions(Array.from({ length: 534 }, (_, i) => 533 - i))).toBe(
      '1, 2, 3, 4, 5, 6, 7, 8, 9, 10 and 524 more',
    );
    const ledger = new Ledger(3000, 3000, { created: [], failed: [], unknown: [] });
    for (let index = 0; index < 534; index++) ledger.outcomeUnknown(index * 5);
    const summary = ledger.summary('profile faulty');
    expect(summary).toContain(
      '534 unknown (record 1, 6, 11, 16, 21, 26, 31, 36, 41, 46 and 524 more)',
    );
    expect(summary.length).toBeLessThan(200);
  });
});
