import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isInt64, parseInt64 } from '../../src/core/int64.js';
import { parseJson, parseWithReviver, stringifyJson } from '../../src/core/json.js';

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

describe('parseJson without a reviver (numbers marked, then read from their text)', () => {
  /** Number texts a double may not read exactly, and ones it does. */
  const numberText = fc.oneof(
    fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String),
    fc.integer().map(String),
    fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => JSON.stringify(n)),
    fc
      .tuple(
        fc.stringMatching(/^-?[1-9]\d{0,20}(\.\d{1,25})?$/),
        fc.integer({ min: -400, max: 400 }),
      )
      .map(([mantissa, exponent]) => `${mantissa}e${exponent}`),
    fc.stringMatching(/^-?[1-9]\d{14,30}\.\d{1,10}$/),
    fc.constantFrom('-0', '0', '1e400', '-1E-400', '0.0000000000000000001', '9007199254740993'),
  );
  /** Strings that look like numbers, quotes, escapes, colons: what a scan could take wrong. */
  const trickyString = fc.oneof(
    fc.string(),
    fc.stringMatching(/^[\d."\\:e\-,[\]{} ]{0,30}$/),
    fc.constantFrom('12345678901234567890', '\\', '"', 'a"b', '1e5', ':'),
  );
  /**
   * Keys without quotes or backslashes: after many parses in one process, V8's JSON.parse
   * itself (plain, no reviver) was seen to read a key "\"" as "\\" (Node 24.21). Values
   * still hold them, so the scan past escapes is tested there.
   */
  const key = fc.oneof(
    fc.string().filter((text) => !/["\\]/.test(text)),
    fc.constantFrom('12345678901234567890', '1e5', ':', '__proto__', '9007199254740993'),
  );
  const document = fc.letrec((tie) => ({
    leaf: fc.oneof(
      numberText.map((text) => JSON.rawJSON(text)),
      trickyString,
      fc.boolean(),
      fc.constant(null),
    ),
    node: fc.oneof(
      { depthSize: 'small' },
      tie('leaf'),
      fc.array(tie('node'), { maxLength: 5 }),
      fc.dictionary(key, tie('node'), { maxKeys: 5 }),
    ),
  })).node;

  it('reads every number of every document exactly (as the reviver reads it alone)', () => {
    fc.assert(
      fc.property(document, fc.boolean(), (value, pretty) => {
        const text = JSON.stringify(value, null, pretty ? 2 : undefined);
        // Each number as the reviver reads it alone (where its source is always given).
        const expected = (node: unknown): unknown => {
          if (typeof node !== 'object' || node === null) return node;
          if (JSON.isRawJSON(node)) return parseWithReviver((node as { rawJSON: string }).rawJSON);
          if (Array.isArray(node)) return node.map(expected);
          return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, expected(v)]));
        };
        const read = parseJson(text);
        expect(stringifyJson(read)).toBe(stringifyJson(expected(value)));
        expect(read).toEqual(expected(value));
      }),
      { numRuns: 500 },
    );
  });

  it('refuses exactly what the reviver refuses, however the text is broken', () => {
    fc.assert(
      fc.property(
        document,
        fc.nat(),
        fc.constantFrom(':', '"', '1', '12345678901234567', 'e5', ',', '}', '\\', '-', '{'),
        (value, at, inserted) => {
          const text = JSON.stringify(value);
          const broken =
            text.slice(0, at % (text.length + 1)) + inserted + text.slice(at % (text.length + 1));
          const outcome = (parse: (t: string) => unknown) => {
            try {
              return stringifyJson(parse(broken));
            } catch (error) {
              return error instanceof SyntaxError ? 'SyntaxError' : String(error);
            }
          };
          expect(outcome(parseJson)).toBe(outcome(parseWithReviver));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('keeps a number under the key __proto__ as a field, and a number-like key as a key', () => {
    const value = parseJson(
      '{"__proto__": 12345678901234567890, "12345678901234567": 1e3}',
    ) as Record<string, unknown>;
    expect(Object.getOwnPropertyDescriptor(value, '__proto__')?.value).toBe(12345678901234567890n);
    expect(value['12345678901234567']).toBe(1000);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    // A number where a key must be is no JSON, marked or not.
    expect(() => parseJson('{12345678901234567: 1}')).toThrow(SyntaxError);
    // A text that spells a mark's character: its strings are never taken for marks.
    expect(parseJson('["\\u00000", "\\uFDD00", 12345678901234567890]')).toEqual([
      '\u00000',
      '\uFDD00',
      12345678901234567890n,
    ]);
    // Under a key spelled with an escape too.
    expect(parseJson('{"\\"": 9007199254740993}')).toEqual({ '"': 9007199254740993n });
  });
});
