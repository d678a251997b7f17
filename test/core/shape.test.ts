import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { messageProblem, newPetProblem } from '../../src/core/interface.js';

/** Text with one lone surrogate somewhere in it: half of a character, not sendable as UTF-8. */
const brokenText = fc
  .tuple(
    fc.string({ unit: 'grapheme', minLength: 1 }),
    fc.integer({ min: 0xd800, max: 0xdfff }),
    fc.string({ unit: 'grapheme' }),
  )
  .map(([before, unit, after]) => before + String.fromCharCode(unit) + after)
  .filter((text) => !text.isWellFormed());

describe('request bodies', () => {
  it('refuse any string holding a lone surrogate, in a pet and in a message', () => {
    fc.assert(
      fc.property(brokenText, (text) => {
        expect(newPetProblem({ name: text, categoryId: 1 })).toEqual({
          code: 'invalid_name',
          message: expect.stringContaining('lone surrogate') as string,
        });
        expect(messageProblem({ message: text })?.code).toBe('invalid_message');
      }),
    );
  });

  it('take any well-formed text, whatever its characters', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', minLength: 1 }).filter((text) => text.trim() !== ''),
        (text) => {
          expect(newPetProblem({ name: text, categoryId: 1 })).toBeUndefined();
          expect(messageProblem({ message: text })).toBeUndefined();
        },
      ),
    );
  });
});
