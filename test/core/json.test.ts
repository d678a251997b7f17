import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isInt64, parseInt64 } from '../../src/core/int64.js';
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
        // Nested arrays and objects: a bigint deep inside is found, and the input is not changed.
        fc.letrec((tie) => ({
          leaf: fc.oneof(
            fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
            fc.integer(),
            fc.string(),
            fc.constant(null),
          ),
          node: fc.oneof(
            { depthSize: 'small' },
            tie('leaf'),
            fc.array(tie('node'), { maxLength: 4 }),
            fc.dictionary(fc.string({ maxLength: 4 }), tie('node'), { maxKeys: 4 }),
          ),
        })).node,
        (values) => {
          const viaReplacer = JSON.stringify(values, (_k, v: unknown) =>
            typeof v === 'bigint' ? JSON.rawJSON(v.toString()) : v,
          );
          const before = viaReplacer;
          expect(stringifyJson(values)).toBe(viaReplacer);
          expect(
            JSON.stringify(values, (_k, v: unknown) =>
              typeof v === 'bigint' ? JSON.rawJSON(v.toString()) : v,
            ),
          ).toBe(before);
        },
      ),
    );
  });
});

describe('numbers a double would round to an integer they are not', () => {
  it('are never read as that integer, and are written back as they came', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
        fc.stringMatching(/^[0-9]{0,6}[1-9]$/),
        fc.integer({ min: 14, max: 30 }),
        (whole, tail, zeros) => {
          // whole.000…0tail: not an integer, however close to one.
          const literal = `${whole}.${'0'.repeat(zeros)}${tail}`;
          const parsed = parseJson(`{"categoryId":${literal}}`) as { categoryId: unknown };
          expect(isInt64(parsed.categoryId)).toBe(false);
          // Where a double rounds it to an integer, the text is kept, not the integer.
          if (Number.isInteger(Number(literal))) {
            expect(stringifyJson(parsed)).toBe(`{"categoryId":${literal}}`);
          }
        },
      ),
    );
  });

  it('an integer written with a fraction of zeros or an exponent is that integer, exactly', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), fc.nat(5), (n, zeros) => {
        const parsed = parseJson(`[${n}.${'0'.repeat(zeros + 1)}]`) as unknown[];
        expect(BigInt(parsed[0] as number | bigint)).toBe(n);
      }),
    );
  });

  it('an int64 in exponent form, however its digits and exponent are split, is that integer', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
        fc.integer({ min: 0, max: 19 }),
        fc.nat(3),
        fc.constantFrom('e', 'E', 'e+'),
        (n, shift, trailing, e) => {
          // n = digits * 10^exponent with the point moved `shift` places left.
          fc.pre(n !== 0n || trailing === 0);
          const negative = n < 0n;
          const digits = (negative ? -n : n).toString() + '0'.repeat(trailing);
          const point = Math.max(1, digits.length - shift);
          const mantissa = `${digits.slice(0, point)}${point < digits.length ? `.${digits.slice(point)}` : ''}`;
          const exponent = digits.length - point - trailing;
          const plus = exponent >= 0 && e.endsWith('+') ? '+' : '';
          const literal = `${negative ? '-' : ''}${mantissa}${e[0]}${plus}${exponent}`;
          const parsed = parseJson(`{"categoryId":${literal}}`) as { categoryId: number | bigint };
          expect(
            typeof parsed.categoryId === 'number' || typeof parsed.categoryId === 'bigint',
          ).toBe(true);
          expect(BigInt(parsed.categoryId), literal).toBe(n);
        },
      ),
    );
    for (const literal of ['1e16', '5e17', '1e18', '1.0e18', '1E18', '123456789012345678e1']) {
      expect(isInt64((parseJson(`[${literal}]`) as unknown[])[0]), literal).toBe(true);
    }
    expect(parseJson('[0e999999999]')).toEqual([0]);
  });
});
