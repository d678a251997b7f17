import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checksum64, readSummed } from '../../src/core/checksum.js';

const P1 = 0x9e3779b185ebca87n;
const P2 = 0xc2b2ae3d27d4eb4fn;
const P3 = 0x165667b19e3779f9n;
const SEED = 0x27d4eb2f165667c5n;
const u64 = (value: bigint) => BigInt.asUintN(64, value);
const rotl = (value: bigint, by: bigint) => u64((value << by) | (value >> (64n - by)));

/** The same rounds in plain BigInt arithmetic: what the WebAssembly function must compute. */
function reference(bytes: Uint8Array): bigint {
  const padded = new Uint8Array(Math.ceil(bytes.length / 8) * 8);
  padded.set(bytes);
  const view = new DataView(padded.buffer);
  let h = SEED;
  for (let i = 0; i < padded.length; i += 8) {
    h = u64(rotl(u64(h + u64(view.getBigUint64(i, true) * P2)), 31n) * P1);
  }
  h ^= BigInt(bytes.length);
  h = u64((h ^ (h >> 33n)) * P2);
  h = u64((h ^ (h >> 29n)) * P3);
  return h ^ (h >> 32n);
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

  it('changes when two top bits flip at words an even distance apart (a plain sum would not)', () => {
    const bytes = new Uint8Array(64).fill(0x5a);
    const flipped = Uint8Array.from(bytes);
    flipped[7]! ^= 0x80;
    flipped[23]! ^= 0x80;
    expect(checksum64(flipped)).not.toBe(checksum64(bytes));
    // Zeros added at the end: the same words, another length.
    expect(checksum64(Uint8Array.of(1, 2, 3, 0))).not.toBe(checksum64(Uint8Array.of(1, 2, 3)));
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

describe('readSummed', () => {
  it('gives the bytes a reader gives, however it splits them, and their reference sum', () => {
    fc.assert(
      fc.property(
        fc.array(fc.uint8Array({ maxLength: 200_000 }), { minLength: 1, maxLength: 3 }),
        fc.integer({ min: 1, max: 70_000 }),
        fc.nat({ max: 16 }),
        (files, most, shorter) => {
          for (const file of files) {
            // A file as a reader gives it: at most `most` bytes a call, and `shorter` fewer in
            // all than its size said (it was cut short meanwhile).
            const size = file.length;
            const there = file.subarray(0, Math.max(0, size - shorter));
            const read = (_descriptor: number, into: Uint8Array, at: number) => {
              const piece = there.subarray(at, at + Math.min(most, into.length));
              into.set(piece);
              return piece.length;
            };
            const { bytes, sum } = readSummed(7, size, read);
            expect(Buffer.from(bytes).equals(Buffer.from(there))).toBe(true);
            expect(sum).toBe(reference(there));
            expect(checksum64(there)).toBe(sum);
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});
