import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { shortText } from '../../src/core/short-text.js';

describe('shortText', () => {
  it('is the first characters of the text, whatever it holds', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.integer({ min: 0, max: 300 }), (text, max) => {
        expect(shortText(text, max)).toBe(text.slice(0, max));
      }),
    );
  });
});
