import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { agentPet, agentValue } from '../../src/mcp/agent-data.js';

/** What a terminal would act on or hide: control, format and default-ignorable characters. */
const UNSAFE = /[\p{Cc}\p{Cf}]/u;

describe('agent data', () => {
  it('gives every int64 as a string of digits, exact past 2^53', () => {
    const pet = agentPet({ id: 9223372036854775807n, name: 'Max', categoryId: 12, status: 'sold' });
    expect(pet).toEqual({
      id: '9223372036854775807',
      name: 'Max',
      categoryId: '12',
      status: 'sold',
    });
  });

  it('leaves no control or invisible character in any text from the service, at any depth', () => {
    const hostile = fc.string({ unit: 'binary', maxLength: 40 });
    fc.assert(
      fc.property(hostile, hostile, hostile, (name, extra, key) => {
        const value = agentValue({ id: 1, name, categoryId: 2, [key]: { nested: [extra] } });
        const text = JSON.stringify(value);
        const strings: string[] = [];
        JSON.parse(text, (_k, v: unknown) => {
          if (typeof v === 'string') strings.push(v);
          return v;
        });
        for (const field of strings) {
          // Only the joiners and selectors an emoji is made of may stay.
          expect(field.replace(/\u200D|\uFE0F|\uFE0E|[\u{E0020}-\u{E007F}]/gu, '')).not.toMatch(
            UNSAFE,
          );
        }
        expect(Object.keys(value as object).every((field) => !UNSAFE.test(field))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('removes escape sequences whole, and mends a broken character', () => {
    expect(
      agentPet({
        id: 1,
        categoryId: 1,
        name: 'Rex\u001b[31mRED\u001b]8;;http://evil\u0007link\u001b[0m',
      }).name,
    ).toBe('RexREDlink');
    expect(agentPet({ id: 1, categoryId: 1, name: 'bad\uD800x' }).name).toBe('bad\uFFFDx');
  });

  it('keeps the lines of a message, and nothing that is not JSON data', () => {
    expect(agentValue({ message: 'line 1\nline 2\u001b[31m' })).toEqual({
      message: 'line 1\nline 2',
    });
    expect(agentValue({ n: Number.NaN, u: undefined, f: () => 1 })).toEqual({ n: null, f: null });
  });
});
