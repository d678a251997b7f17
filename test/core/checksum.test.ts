import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checksum64 } from '../../src/core/checksum.js';

/** The same sums in plain BigInt arithmetic: what the WebAssembly function must compute. */
function reference(bytes: Uint8Array): bigint {
  const padded = new Uint8Array(Math.ceil(bytes.length / 8) * 8);
  padded.set(bytes);
  const view = new DataView(padded.buffer);
  let a = 0n;
  let b = 0n;
  for (let i = 0; i < padded.length; i += 8) {
    a = BigInt.asUintN(64, a + view.getBigUint64(i, true));
    b = BigInt.asUintN(64, b + a);
  }
  const rotated = BigInt.asUintN(64, (b << 29n) | (b >> 35n));
  return a ^ rotated;
}

describe('checksum64', () => {
  it('is the reference sums for any bytes, of any length, called in any order', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 300_000 }), { maxLength: 4 }), (inputs) => {
        for (const bytes of inputs) expect(checksum64(bytes)).toBe(reference(bytes));
      }),
      { numRuns: 30 },
    );
  });

  it('changes when any one bit of the bytes changes, or two words swap', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 16, maxLength: 4096 }),
        fc.nat(),
        fc.integer({ min: 0, max: 7 }),
        (bytes, at, bit) => {
          const flipped = Uint8Array.from(bytes);
          flipped[at % bytes.length]! ^= 1 << bit;
          expect(checksum64(flipped)).not.toBe(checksum64(bytes));
          const swapped = Uint8Array.from(bytes);
          swapped.set(bytes.subarray(0, 8), 8);
          swapped.set(bytes.subarray(8, 16), 0);
          const same = bytes.subarray(0, 8).every((byte, i) => byte === bytes[8 + i]);
          if (!same) expect(checksum64(swapped)).not.toBe(checksum64(bytes));
        },
      ),
      { numRuns: 200 },
    );
  });
});
