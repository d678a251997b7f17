import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseLimit, parseStatus } from '../../src/cmdutil/flags.js';
import { UsageError } from '../../src/core/errors.js';

describe('--limit', () => {
  it('accepts 1 to 100', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 100 }), (n) => parseLimit(String(n)) === n));
  });

  it.each(['0', '101', '1.5', 'abc', '-1', '', '1e2'])('rejects %j', (text) => {
    expect(() => parseLimit(text)).toThrow(UsageError);
  });

  it('is absent when not given', () => {
    expect(parseLimit(undefined)).toBeUndefined();
  });
});

describe('--status', () => {
  it.each(['available', 'pending', 'sold'])('accepts %s', (status) => {
    expect(parseStatus(status)).toBe(status);
  });

  it.each(['Available', 'gone', ''])('rejects %j', (status) => {
    expect(() => parseStatus(status)).toThrow(/available, pending, sold/);
  });
});
