import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkInput } from '../../src/bulk/check.js';
import { givenSource } from '../../src/bulk/import-source.js';
import { RECORD_MAX_CHARS } from '../../src/core/contract.js';
import { UsageError } from '../../src/core/errors.js';
import type { NewPet } from '../../src/core/interface.js';
import { stringifyJson } from '../../src/core/json.js';
import { checkedPet } from '../../src/operations/pets/add.js';
import { readPets } from '../helpers/read-records.js';

/** A field name as JSON may spell it: plain, or with any of its letters \u-escaped. */
function spelled(name: string, escapes: boolean[]): string {
  const letters = Array.from(name).map((letter, i) =>
    escapes[i % escapes.length]
      ? `\\u${letter.charCodeAt(0).toString(16).padStart(4, '0')}`
      : letter,
  );
  return `"${letters.join('')}"`;
}

const field = fc.constantFrom('name', 'categoryId', 'status');
const valueOf = (key: string, n: number) =>
  key === 'name' ? `"pet ${n}"` : key === 'categoryId' ? `${n}` : '"sold"';

/** The message an input is refused with. */
async function refusal(text: string, source = 'f', given?: 'json' | 'ndjson'): Promise<string> {
  const error = await readPets(text, source, { given }).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(UsageError);
  return (error as UsageError).message;
}

describe('JSON and NDJSON input', () => {
  it('reads a JSON array and NDJSON alike, keeping int64 digits', async () => {
    const array = await readPets('[{"name":"A","categoryId":9223372036854775807}]', 'f');
    const ndjson = await readPets(
      '\n{"name":"A","categoryId":9223372036854775807}\r\n\n{"name":"B","categoryId":2}',
      'f',
    );
    expect(array.pets).toEqual([{ name: 'A', categoryId: 9223372036854775807n }]);
    expect(ndjson.pets).toEqual([...array.pets, { name: 'B', categoryId: 2 }]);
  });

  it('reports every bad record at once, by position', async () => {
    expect(
      await refusal(
        '{"name":"A","categoryId":1}\n{"name":"","categoryId":1}\n{"name":"C","categoryId":1.5}',
      ),
    ).toBe(
      'f: 2 bad records: line 2: "name" must be a non-empty string; line 3: "categoryId" must be an int64 integer; nothing was sent',
    );
  });

  it('a line that is not JSON does not hide the problems of the others', async () => {
    expect(await refusal('{"name":"","categoryId":1}\n{"name":\n{"name":"C"}\n')).toBe(
      'f: 3 bad records: line 1: "name" must be a non-empty string; line 2: not valid JSON; line 3: "categoryId" is required; nothing was sent',
    );
  });

  it('reports up to 20 problems and counts the rest', async () => {
    const text = Array.from({ length: 25 }, () => '{"name":"A"}').join('\n');
    expect(await refusal(text)).toMatch(/25 bad records: .*line 20: .*\(and 5 more\)/);
  });

  it('tells deeply nested but valid JSON from malformed JSON', async () => {
    const deep = `{"name":"A","categoryId":1,"x":${'['.repeat(5000)}${']'.repeat(5000)}}`;
    expect(await refusal(deep)).toContain('line 1: JSON nested more than 1000 levels deep');
  });

  it.each([
    ['', 'holds no pets'],
    ['[]', 'holds no pets'],
    ['{"name":', 'line 1: not valid JSON'],
    ['[{"name":"A"', 'is not valid JSON: the array is never closed'],
    ['[{"name":"A","categoryId":1} {"name":"B","categoryId":1}]', 'is not valid JSON: item 1'],
    ['[{"name":"A","categoryId":1},]', 'an item is missing before "]"'],
    ['[{"name":"A","categoryId":1}] x', 'text after the closing ]'],
    [
      '[{"name":"A","categoryId":1,"category_id":1}]',
      'unknown field(s): category_id; NewPet has name, categoryId, status',
    ],
    ['[{"name":"A","categoryId":1,"status":"lost"}]', '"status" must be one of'],
    // Not an integer, though a double would round it to 4 (and 2.99… to 3).
    ['{"name":"A","categoryId":4.00000000000000000001}', '"categoryId" must be an int64 integer'],
    ['[{"name":"A","categoryId":2.9999999999999999}]', '"categoryId" must be an int64 integer'],
  ])('refuses %j', async (text, message) => {
    expect(await refusal(text)).toContain(message);
  });

  it.each([
    '[{"name":"A","categoryId":1},]',
    '[{"name":"A"',
    '[{"name":"A","categoryId":1}] x',
    '[{"name":"A","categoryId":1} {"name":"B","categoryId":1}]',
  ])('a JSON array that does not parse (%j) says what to do', async (text) => {
    const error = await readPets(text, 'f').then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect((error as UsageError).hint).toEqual(expect.stringContaining('jq . FILE'));
  });

  it('refuses JSON given that is no array, saying what it is', async () => {
    expect(await refusal('{"name":"A","categoryId":1}\n', 'p.json', 'json')).toContain(
      'is not one JSON array but one object a line (NDJSON)',
    );
    expect(await refusal('name,categoryId\nA,1\n', 'p.json', 'json')).toContain(
      'looks like CSV (its first line is a header',
    );
    expect(await refusal('"pets"', 'p.json', 'json')).toContain('must hold a JSON array of pets');
  });

  it('reads any number of records, and refuses one record longer than a record may be', async () => {
    const many = await readPets('{"name":"Rex","categoryId":1}\n'.repeat(60_000), 'p.ndjson');
    expect(many.check.records).toBe(60_000);
    const long = `{"name":"${'x'.repeat(RECORD_MAX_CHARS)}","categoryId":1}`;
    for (const text of [`${long}\n`, `[${long}]`]) {
      expect(await refusal(text)).toMatch(
        /f, (line|item) 1: a record longer than 1,048,576 characters/,
      );
    }
  });
});

describe('records read as they stream', () => {
  const pet = fc.record(
    {
      name: fc.string({ minLength: 1, unit: 'binary' }).filter((name) => name.trim() !== ''),
      categoryId: fc.bigInt({ min: 0n, max: 2n ** 63n - 1n }),
      status: fc.constantFrom('available', 'pending', 'sold'),
    },
    { requiredKeys: ['name', 'categoryId'] },
  );

  it('are the same however the input is cut into reads, in an array or a line each', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(pet, { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 1, max: 40 }),
        fc.constantFrom(' ', '\n', '\r\n', '\t', ''),
        fc.boolean(),
        async (pets, chunk, blank, asArray) => {
          const lines = pets.map((p) => stringifyJson(p));
          const text = asArray
            ? `${blank}[${blank}${lines.join(`${blank},${blank}`)}${blank}]${blank}`
            : lines.map((line) => `${line}\n${blank === '\n' ? '\n' : ''}`).join('');
          const given = asArray ? 'json' : 'ndjson';
          const whole = await readPets(text, 'f', { given });
          const cut = await readPets(text, 'f', { given, chunk });
          expect(cut.pets).toEqual(whole.pets);
          expect(cut.check.digest).toBe(whole.check.digest);
          expect(whole.pets).toHaveLength(pets.length);
        },
      ),
    );
  });
});

describe('bulk records with a key given twice', () => {
  it('are refused before anything is sent, each named, whatever the spelling or format', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 8 }),
        fc.uniqueArray(fc.nat({ max: 7 }), { minLength: 1, maxLength: 4 }),
        field,
        fc.array(fc.boolean(), { minLength: 1, maxLength: 4 }),
        fc.boolean(),
        async (count, picks, twice, escapes, ndjson) => {
          const bad = new Set(picks.filter((pick) => pick < count));
          fc.pre(bad.size > 0);
          const records = Array.from({ length: count }, (_, i) => {
            const fields = [`"name":"pet ${i}"`, `"categoryId":${i + 1}`, `"status":"pending"`];
            if (bad.has(i)) fields.push(`${spelled(twice, escapes)}:${valueOf(twice, i + 100)}`);
            return `{${fields.join(',')}}`;
          });
          const text = ndjson ? records.join('\n') : `[${records.join(',\n')}]`;
          const message = await refusal(text, 'pets');
          for (const index of bad) {
            expect(message).toContain(
              `${ndjson ? 'line' : 'item'} ${index + 1}: "${twice}" is given twice`,
            );
          }
          expect(message).toContain(`${bad.size} bad record`);
          expect(message).toContain('nothing was sent');
        },
      ),
    );
  });

  it('a key twice only inside a value that is not a record field is still an unknown field', async () => {
    await expect(readPets('[{"name":"a","categoryId":1}]', 'x')).resolves.toBeDefined();
    expect(await refusal('{"name":"a","categoryId":1,"name":"b"}', 'x')).toMatch(
      /line 1: "name" is given twice/,
    );
  });
});

describe('a status in another letter case', () => {
  it('is sent as the interface spells it, in JSON and NDJSON, and counted', async () => {
    const statuses = ['available', 'pending', 'sold'] as const;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...statuses),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 9 }),
        fc.boolean(),
        async (status, upper, asArray) => {
          const typed = Array.from(status, (c, i) =>
            upper[i % upper.length] ? c.toUpperCase() : c,
          ).join('');
          const line = `{"name":"Rex","categoryId":1,"status":"${typed}"}`;
          const read = asArray
            ? await readPets(`[${line}]`, 'in.json')
            : await readPets(`${line}\n`, 'in.ndjson');
          expect(read.pets[0]!.status).toBe(status);
          expect(read.check.statusCaseChanged).toBe(typed === status ? 0 : 1);
        },
      ),
    );
    // One that is no status in any case is still refused.
    expect(await refusal('{"name":"Rex","categoryId":1,"status":"Adopted"}\n', 'x')).toContain(
      '"status" must be one of',
    );
  });
});

describe('pets given as data', () => {
  it('digest as the same pets read as one JSON body a line: a batch keeps its journal', async () => {
    const pet = fc.record(
      {
        name: fc.string({ minLength: 1 }).filter((name) => name.trim() !== ''),
        categoryId: fc.bigInt({ min: 0n, max: 2n ** 63n - 1n }),
        status: fc.constantFrom('available', 'pending', 'sold'),
      },
      { requiredKeys: ['name', 'categoryId'] },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(pet, { minLength: 1, maxLength: 8 }), async (pets) => {
        const given = pets.map((p) => checkedPet(p as NewPet));
        const text = given.map((p) => `${stringifyJson(p)}\n`).join('');
        const read = await readPets(text, 'standard input', { given: 'ndjson' });
        const source = givenSource(given);
        const asGiven = await checkInput(await source.read(), 'x', { skipInvalid: false }, {});
        expect(asGiven.digest).toBe(read.check.digest);
      }),
    );
  });
});
