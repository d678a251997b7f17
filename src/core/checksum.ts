// A 64-bit checksum of bytes, computed by a small WebAssembly function: about 1.2 ms a megabyte,
// and 0.6 ms to make the function once (a JavaScript loop, not yet optimised in a short run, took
// 1.7 ms for half a megabyte of a weaker sum; node:zlib or node:crypto cost 2 ms and more only to
// load). A `pets list` run sums about 1.7 MB of sources and caches, the sources read straight into
// its memory (readSummed): some 1.5 ms of its start-up, the price of never running a damaged or
// stale cache. Each 8-byte word goes through a round of xxHash64 (multiply, rotate, multiply:
// every bit of a word reaches every bit of the sum, so no two flipped bits cancel out), then the
// length and xxHash64's final mix. Not a cryptographic hash: it tells a file damaged, cut short or
// another file, not one forged by someone who may write the file.
//
// The module, in the WebAssembly text format (P1, P2, P3, SEED: xxHash64's PRIME64_1, _2, _3
// and _5):
//   (module
//     (memory (export "m") 1)
//     (func (export "s") (param $n i32) (param $length i32) (result i64)
//       (local $i i32) (local $h i64)
//       (local.set $h (i64.const SEED))
//       (block (loop
//         (br_if 1 (i32.ge_u (local.get $i) (local.get $n)))
//         (local.set $h (i64.mul (i64.rotl (i64.add (local.get $h)
//           (i64.mul (i64.load (local.get $i)) (i64.const P2))) (i64.const 31)) (i64.const P1)))
//         (local.set $i (i32.add (local.get $i) (i32.const 8)))
//         (br 0)))
//       (local.set $h (i64.xor (local.get $h) (i64.extend_i32_u (local.get $length))))
//       (local.set $h (i64.mul (i64.xor (local.get $h) (i64.shr_u (local.get $h) (i64.const 33)))
//         (i64.const P2)))
//       (local.set $h (i64.mul (i64.xor (local.get $h) (i64.shr_u (local.get $h) (i64.const 29)))
//         (i64.const P3)))
//       (i64.xor (local.get $h) (i64.shr_u (local.get $h) (i64.const 32)))))
// The words are read little-endian, the last one padded with zeros.
import { Buffer } from 'node:buffer';

const MODULE =
  'AGFzbQEAAAABBwFgAn9/AX4DAgEABQMBAAEHCQIBbQIAAXMAAAqJAQGGAQIBfwF+QsXP2bLx5brqJyEDAkADQCACIABPDQEgAyACKQMAQs/W077Sx6vZQn58Qh+JQoeVr6+Ytt6bnn9+IQMgAkEIaiECDAALCyADIAGthSEDIAMgA0IhiIVCz9bTvtLHq9lCfiEDIAMgA0IdiIVC+fPd8Zn2masWfiEDIAMgA0IgiIUL';
const PAGE = 65_536;

/** The parts of the WebAssembly API used here (the project's TypeScript lib has none). */
interface Wasm {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: unknown };
}
interface ChecksumExports {
  m: { buffer: ArrayBuffer; grow(pages: number): number };
  s: (padded: number, length: number) => bigint;
}

let instance: ChecksumExports | null | undefined;

/** The WebAssembly function, or null where there is no WebAssembly (node --jitless). */
function checksumFunction(): ChecksumExports | null {
  if (instance === undefined) {
    try {
      const { Module, Instance } = (globalThis as unknown as { WebAssembly: Wasm }).WebAssembly;
      instance = new Instance(new Module(Buffer.from(MODULE, 'base64'))).exports as ChecksumExports;
    } catch {
      instance = null;
    }
  }
  return instance;
}

/** Whether checksum64 can run here. */
export function canChecksum(): boolean {
  return checksumFunction() !== null;
}

/** The function, its memory grown to hold `length` bytes padded to whole words. */
function withRoom(length: number): ChecksumExports {
  const instance = checksumFunction();
  if (instance === null) throw new Error('no WebAssembly to compute a checksum with');
  const pages = Math.ceil((length + 8) / PAGE) - instance.m.buffer.byteLength / PAGE;
  if (pages > 0) instance.m.grow(pages);
  return instance;
}

/** The sum of the first `length` bytes of the memory, zeros padding the last word. */
function sumInPlace({ m: memory, s: sum }: ChecksumExports, length: number): bigint {
  const padded = Math.ceil(length / 8) * 8;
  new Uint8Array(memory.buffer).fill(0, length, padded);
  return BigInt.asUintN(64, sum(padded, length));
}

/** The checksum of the bytes, as an unsigned 64-bit integer (canChecksum() must be true). */
export function checksum64(bytes: Uint8Array): bigint {
  const instance = withRoom(bytes.length);
  new Uint8Array(instance.m.buffer).set(bytes);
  return sumInPlace(instance, bytes.length);
}

/**
 * The first `size` bytes of an open file, read straight into the checksum's memory, and their
 * checksum (as checksum64 gives it): no copy of them, nor fresh pages for one, which for a
 * megabyte of sources saved most of what summing them cost. The bytes are valid until the
 * next call here (the memory is reused, and growing it detaches the view).
 */
export function readSummed(
  descriptor: number,
  size: number,
  read: (descriptor: number, into: Uint8Array, at: number) => number,
): { bytes: Uint8Array; sum: bigint } {
  const instance = withRoom(size);
  const bytes = new Uint8Array(instance.m.buffer, 0, size);
  let length = 0;
  while (length < size) {
    const got = read(descriptor, bytes.subarray(length), length);
    if (got === 0) break; // shorter than it was: what is there
    length += got;
  }
  return { bytes: bytes.subarray(0, length), sum: sumInPlace(instance, length) };
}
