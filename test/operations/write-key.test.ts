import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { derivedWriteKey, writeKey } from '../../src/operations/write-key.js';

const UUID_V8 = /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('write keys', () => {
  it('is the key given, or a new UUID each time', () => {
    expect(writeKey('given-1')).toBe('given-1');
    expect(writeKey(undefined)).not.toBe(writeKey(undefined));
  });

  it('derives the same UUID-shaped key from the same parts, another from other parts', () => {
    fc.assert(
      fc.property(fc.array(fc.string()), fc.array(fc.string()), (a, b) => {
        expect(derivedWriteKey(a)).toMatch(UUID_V8);
        expect(derivedWriteKey(a)).toBe(derivedWriteKey([...a]));
        if (JSON.stringify(a) !== JSON.stringify(b)) {
          expect(derivedWriteKey(a)).not.toBe(derivedWriteKey(b));
        }
      }),
    );
    // Parts are kept apart: ["ab"] and ["a", "b"] are different writes.
    expect(derivedWriteKey(['ab'])).not.toBe(derivedWriteKey(['a', 'b']));
  });
});
