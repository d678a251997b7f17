import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  fieldsFlag,
  idempotencyKeyFlag,
  limitFlag,
  nonEmptyFlag,
  pathFlag,
  statusFlag,
} from '../../src/cmdutil/flags.js';
import { parseDuration } from '../../src/core/duration.js';
import { UsageError } from '../../src/core/errors.js';

describe('--limit', () => {
  it('accepts 1 to 100', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 100 }), (n) => limitFlag(String(n)) === n));
  });

  it.each(['0', '101', '1.5', 'abc', '-1', '', '1e2'])('rejects %j', (text) => {
    expect(() => limitFlag(text)).toThrow(UsageError);
  });
});

describe('--status', () => {
  it.each(['available', 'pending', 'sold'])('accepts %s', (status) => {
    expect(statusFlag(status)).toBe(status);
  });

  it.each(['Available', 'gone', '', 'so ld'])('rejects %j', (status) => {
    expect(() => statusFlag(status)).toThrow(/available, pending, sold/);
  });

  it('takes a status with blanks a script left around it', () => {
    expect(statusFlag(' sold\t')).toBe('sold');
  });
});

describe('path flags', () => {
  it('refuse an empty value, which names no file, and take any other as given', () => {
    expect(() => pathFlag('--file')('')).toThrow('--file must name a file (got an empty value)');
    expect(pathFlag('--journal')(' j ')).toBe(' j ');
  });
});

describe('durations', () => {
  it.each([
    ['90s', 90_000],
    ['1h30m', 5_400_000],
    ['2w', 14 * 86_400_000],
    ['7D', 7 * 86_400_000],
    ['1d12h', 36 * 3_600_000],
    ['1.5s', 1500],
  ])('%s is %d ms', (text, ms) => {
    expect(parseDuration(text, Number.MAX_SAFE_INTEGER)).toBe(ms);
  });

  it.each(['', '0s', '1m1h', '1h1h', 'h', '1', '1y', '-1h', '1 h'])('%j is none', (text) => {
    expect(parseDuration(text, Number.MAX_SAFE_INTEGER)).toBeUndefined();
  });
});

describe('--fields', () => {
  it('keeps the order given, and refuses unknown or repeated names', () => {
    const parse = fieldsFlag(['id', 'name', 'status']);
    expect(parse('status,id')).toEqual(['status', 'id']);
    expect(() => parse('id,colour')).toThrow('--fields: unknown field "colour"');
    expect(() => parse('id,id')).toThrow('"id" is named twice');
  });
});

describe('a text flag that must hold something', () => {
  it('refuses blanks, whatever they are', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[ \t\n\r]*$/), (blank) => {
        expect(() => nonEmptyFlag('--name')(blank)).toThrow('--name must not be empty');
      }),
    );
    expect(nonEmptyFlag('--name')(' Rex ')).toBe(' Rex ');
  });
});

describe('--idempotency-key', () => {
  it('takes 1 to 255 visible ASCII characters, nothing else', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[\x21-\x7e]{1,255}$/), (key) => {
        expect(idempotencyKeyFlag(key)).toBe(key);
      }),
    );
    for (const bad of ['', 'with space', 'ключ', 'x'.repeat(256)]) {
      expect(() => idempotencyKeyFlag(bad)).toThrow(UsageError);
    }
  });
});
