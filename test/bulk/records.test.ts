import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readPetRecords } from '../../src/bulk/input-format.js';
import { digestInput, givenRecords, parsePetsFile } from '../../src/bulk/records.js';
import type { NewPet } from '../../src/core/interface.js';
import { stringifyJson } from '../../src/core/json.js';
import { checkedPet } from '../../src/operations/pets/add.js';
import { BULK_MAX_RECORDS } from '../../src/core/contract.js';
import { UsageError } from '../../src/core/errors.js';

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

describe('bulk records with a key given twice', () => {
  it('are refused before anything is sent, each named, whatever the spelling or format', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 8 }),
        fc.uniqueArray(fc.nat({ max: 7 }), { minLength: 1, maxLength: 4 }),
        field,
        fc.array(fc.boolean(), { minLength: 1, maxLength: 4 }),
        fc.boolean(),
        (count, picks, twice, escapes, ndjson) => {
          const bad = new Set(picks.filter((pick) => pick < count));
          fc.pre(bad.size > 0);
          const records = Array.from({ length: count }, (_, i) => {
            const fields = [`"name":"pet ${i}"`, `"categoryId":${i + 1}`, `"status":"pending"`];
            if (bad.has(i)) fields.push(`${spelled(twice, escapes)}:${valueOf(twice, i + 100)}`);
            return `{${fields.join(',')}}`;
          });
          const text = ndjson ? records.join('\n') : `[${records.join(',\n')}]`;
          let error: unknown;
          try {
            parsePetsFile(text, 'pets.json');
          } catch (caught) {
            error = caught;
          }
          expect(error).toBeInstanceOf(UsageError);
          const message = (error as UsageError).message;
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

  it('a key twice only inside a value that is not a record field is still an unknown field', () => {
    expect(() => parsePetsFile('[{"name":"a","categoryId":1}]', 'x')).not.toThrow();
    expect(() => parsePetsFile('{"name":"a","categoryId":1,"name":"b"}', 'x')).toThrow(
      /line 1: "name" is given twice/,
    );
  });
});

describe('a status in another letter case', () => {
  it('is sent as the interface spells it, in JSON and NDJSON, and counted', () => {
    const statuses = ['available', 'pending', 'sold'] as const;
    fc.assert(
      fc.property(
        fc.constantFrom(...statuses),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 9 }),
        fc.boolean(),
        (status, upper, asArray) => {
          const typed = Array.from(status, (c, i) =>
            upper[i % upper.length] ? c.toUpperCase() : c,
          ).join('');
          const line = `{"name":"Rex","categoryId":1,"status":"${typed}"}`;
          const records = asArray
            ? parsePetsFile(`[${line}]`, 'in.json', 'json')
            : parsePetsFile(`${line}\n`, 'in.ndjson', 'ndjson');
          expect(records.at(0).status).toBe(status);
          expect(records.statusCaseChanged).toBe(typed === status ? 0 : 1);
        },
      ),
    );
    // One that is no status in any case is still refused.
    expect(() => parsePetsFile('{"name":"Rex","categoryId":1,"status":"Adopted"}\n', 'x')).toThrow(
      UsageError,
    );
  });
});

describe('an input of more records than one import takes', () => {
  const line = '{"name":"Rex","categoryId":1}';
  const lines = (count: number) => `${line}\n`.repeat(count);

  it('is refused in every format, naming the limit, and the limit itself is taken', async () => {
    const over = BULK_MAX_RECORDS + 1;
    const inputs: [string, string][] = [
      ['pets.ndjson', lines(over)],
      ['pets.json', `[${Array.from({ length: over }, () => line).join(',')}]`],
      ['pets.csv', `name,categoryId\n${'Rex,1\n'.repeat(over)}`],
      ['pets.tsv', `name\tcategoryId\n${'Rex\t1\n'.repeat(over)}`],
    ];
    for (const [name, text] of inputs) {
      await expect(readPetRecords(text, name, { name })).rejects.toThrow(
        `holds more than ${BULK_MAX_RECORDS.toLocaleString('en-US')} records, the most one import takes; nothing was sent`,
      );
    }
    const { records } = await readPetRecords(lines(BULK_MAX_RECORDS), 'p.ndjson', {
      name: 'p.ndjson',
    });
    expect(records.count).toBe(BULK_MAX_RECORDS);
  });

  it('counts blank lines and rows a sheet left empty as no record', async () => {
    const text = `name,categoryId\n${'Rex,1\n,\n'.repeat(BULK_MAX_RECORDS)}`;
    const { records } = await readPetRecords(text, 'p.csv', { name: 'p.csv' });
    expect(records.count).toBe(BULK_MAX_RECORDS);
  });
});

describe('pets given as data', () => {
  it('digest as the same pets read as one JSON body a line: a batch keeps its journal', () => {
    const pet = fc.record(
      {
        name: fc.string({ minLength: 1 }).filter((name) => name.trim() !== ''),
        categoryId: fc.bigInt({ min: 0n, max: 2n ** 63n - 1n }),
        status: fc.constantFrom('available', 'pending', 'sold'),
      },
      { requiredKeys: ['name', 'categoryId'] },
    );
    fc.assert(
      fc.property(fc.array(pet, { minLength: 1, maxLength: 8 }), (pets) => {
        const given = pets.map((p) => checkedPet(p as NewPet));
        const text = given.map((p) => `${stringifyJson(p)}\n`).join('');
        const read = parsePetsFile(text, 'standard input', 'ndjson');
        expect(digestInput(givenRecords(given))).toEqual(digestInput(read));
      }),
    );
  });
});
