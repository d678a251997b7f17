import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { guardFormula, unguardFormula } from '../../src/core/formula-guard.js';

/** Text built from what a formula guard looks at: signs, apostrophes, blanks, letters. */
const tricky = fc
  .array(
    fc.constantFrom("'", '=', '+', '-', '@', '\u2212', '＝', ' ', '\t', '\r', '\u3000', 'a', '1'),
    {
      maxLength: 8,
    },
  )
  .map((parts) => parts.join(''));

describe('the formula guard', () => {
  it('reads back every text exactly as it was before the guard', () => {
    fc.assert(
      fc.property(fc.oneof(tricky, fc.string({ unit: 'binary' })), (text) => {
        expect(unguardFormula(guardFormula(text))).toBe(text);
      }),
      { numRuns: 2000 },
    );
  });

  it('guards what a spreadsheet would run, and leaves other text alone', () => {
    expect(guardFormula('=1+1')).toBe("'=1+1");
    expect(guardFormula(' \u3000@SUM(A1)')).toBe("' \u3000@SUM(A1)");
    expect(guardFormula('＝1')).toBe("'＝1");
    expect(guardFormula('\tx')).toBe("'\tx");
    expect(guardFormula("'=x")).toBe("''=x");
    expect(guardFormula('Rex')).toBe('Rex');
    expect(guardFormula("'Rex")).toBe("'Rex");
    // A cell written by hand with an apostrophe before a plain word keeps it.
    expect(unguardFormula("'Rex")).toBe("'Rex");
    expect(unguardFormula("'-5")).toBe('-5');
  });
});
