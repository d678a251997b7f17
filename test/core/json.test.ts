import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseInt64 } from '../../src/core/int64.js';
import { parseJson, stringifyJson } from '../../src/core/json.js';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

describe('int64-exact JSON', () => {
  it('keeps integers beyond 2^53 digit for digit', () => {
    const text = '{"id":9007199254740993,"categoryId":-9223372036854775808,"n":3}';
    const value = parseJson(text) as Record<string, unknown>;
    expect(value.id).toBe(9007199254740993n);
    expect(value.n).toBe(3);
    expect(stringifyJson(value)).toBe(text);
  });

  it('round-trips every int64 through parse and stringify', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: INT64_MIN, max: INT64_MAX }), (n) => {
        const text = `[${n}]`;
        expect(stringifyJson(parseJson(text))).toBe(text);
      }),
    );
  });

  it('pretty-prints with two spaces', () => {
    expect(stringifyJson({ id: 2n ** 60n }, true)).toBe('{\n  "id": 1152921504606846976\n}');
  });
});

describe('parseInt64', () => {
  it('accepts every int64 written in decimal', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: INT64_MIN, max: INT64_MAX }), (n) => {
        expect(BigInt(parseInt64(String(n), '--category-id'))).toBe(n);
      }),
    );
  });

  it.each(['1.5', '1e3', '0x10', '', 'abc', '9223372036854775808', '-9223372036854775809', '+1'])(
    'rejects %j',
    (text) => {
      expect(() => parseInt64(text, 'PET_ID')).toThrow(/PET_ID/);
    },
  );

  it('rejects anything that is not a decimal integer', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        fc.pre(!/^\s*-?\d+\s*$/.test(text));
        expect(() => parseInt64(text, 'x')).toThrow();
      }),
    );
  });
});

describe('the fast paths of parseJson and stringifyJson', () => {
  it('reads numbers exactly whichever path the text takes', () => {
    // 15 digits: no reviver; 16 and more: the reviver, which keeps only unsafe integers as bigint.
    expect(parseJson('[123456789012345, 1234567890123456, 9007199254740993]')).toEqual([
      123456789012345,
      1234567890123456,
      9007199254740993n,
    ]);
    expect(parseJson('{"name":"12345678901234567890","id":1}')).toEqual({
      name: '12345678901234567890',
      id: 1,
    });
  });

  it('writes the same text as the replacer would, bigint or not', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
            fc.integer(),
            fc.string(),
          ),
        ),
        (values) => {
          const viaReplacer = JSON.stringify(values, (_k, v: unknown) =>
            typeof v === 'bigint' ? JSON.rawJSON(v.toString()) : v,
          );
          expect(parseJson(stringifyJson(values))).toEqual(parseJson(viaReplacer));
        },
      ),
    );
  });
});
