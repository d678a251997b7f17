import { describe, expect, it } from 'vitest';
import { randomHex } from '../../src/core/random-hex.js';

describe('randomHex', () => {
  it('gives the asked number of bytes as lower-case hex, different every time', () => {
    const values = Array.from({ length: 200 }, () => randomHex(16));
    for (const value of values) expect(value).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set(values).size).toBe(values.length);
    expect(randomHex(1)).toMatch(/^[0-9a-f]{2}$/);
  });

  it('uses every bit: over many draws each hex digit appears in each position', () => {
    const seen = Array.from({ length: 8 }, () => new Set<string>());
    for (let i = 0; i < 2000; i++) {
      randomHex(4)
        .split(/(?=.)/u)
        .forEach((digit, position) => seen[position]!.add(digit));
    }
    for (const digits of seen) expect(digits.size).toBe(16);
  });
});
