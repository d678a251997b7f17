import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RECORD_MAX_CHARS } from '../../src/core/contract.js';
import type { InputFormat } from '../../src/bulk/input-format.js';
import { toInt64 } from '../../src/core/int64.js';
import { newPetProblem, PET_STATUSES, type NewPet, type Pet } from '../../src/core/interface.js';
import { readPets } from '../helpers/read-records.js';
import { OUTPUT_FORMAT_SPECS } from '../../src/output/formats.js';
import { PET_COLUMNS } from '../../src/commands/pets/columns.js';

const read = async (text: string, name: string, given?: InputFormat, chunk?: number) => {
  const read = await readPets(text, name, { name, given, chunk });
  const { ignoredIds, statusCaseChanged } = read.check;
  return { pets: read.pets, ignoredIds, statusCaseChanged };
};
const all = (records: { pets: NewPet[] }) => records.pets;

/** Names a spreadsheet export must carry whole: separators, quotes, breaks, formula signs, scripts. */
const hostileName = fc
  .array(
    fc.constantFrom(
      ',',
      '"',
      "'",
      '\n',
      '\r\n',
      '\r',
      '\t',
      '\\',
      '\\t',
      ' ',
      '=',
      '+',
      '-',
      '@',
      '\u2212',
      '＝',
      'Rex',
      'é',
      '🐶',
      '👩‍👩‍👧',
      'שלום',
      'مرحبا',
      '中文',
      'a',
    ),
    { minLength: 1, maxLength: 10 },
  )
  .map((parts) => parts.join(''))
  .filter((name) => newPetProblem({ name, categoryId: 1 }) === undefined);

const pet = fc.record(
  {
    id: fc.bigInt({ min: 1n, max: 2n ** 63n - 1n }).map(toInt64),
    name: hostileName,
    categoryId: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map(toInt64),
    status: fc.constantFrom(...PET_STATUSES),
  },
  { requiredKeys: ['id', 'name', 'categoryId'] },
);

/** What `pets list -o FORMAT` writes for these pets, by the format's own writer. */
function listed(format: 'csv' | 'tsv', pets: Pet[]): string {
  const form = OUTPUT_FORMAT_SPECS[format].lines(PET_COLUMNS);
  return form.header + pets.map((p) => form.line(p)).join('');
}

describe('CSV and TSV input', () => {
  it.each(['csv', 'tsv'] as const)(
    'reads back what pets list -o %s writes, hostile names and int64 exact, the id left out',
    async (format) => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(pet, { minLength: 1, maxLength: 20 }),
          fc.integer({ min: 1, max: 64 }),
          async (pets, chunk) => {
            // Read as it streams, cut anywhere: inside a quote, a CR LF, a character.
            const records = await read(listed(format, pets), `pets.${format}`, undefined, chunk);
            expect(records.ignoredIds).toBe(pets.length);
            expect(all(records)).toEqual(pets.map(({ id: _id, ...rest }) => rest));
          },
        ),
        { numRuns: 300 },
      );
    },
  );

  it('takes a byte order mark, CRLF, blank lines, columns in any order and an empty status', async () => {
    const text =
      '\uFEFFStatus,categoryId,name\r\n\r\nsold,9223372036854775807,Rex\r\n,2,"a\r\nb"\r\n';
    expect(all(await read(text, 'in.csv'))).toEqual([
      { status: 'sold', categoryId: 9223372036854775807n, name: 'Rex' },
      { categoryId: 2, name: 'a\r\nb' },
    ]);
  });

  it('names the line and the column of every bad cell, lines counted across quoted breaks', async () => {
    const text = 'name,categoryId,status\n"two\nlines",1,\n\nRex,x1,\n ,2,SOLDD\n';
    await expect(read(text, 'in.csv')).rejects.toThrow(
      'in.csv: 2 bad records: line 5, column 2 (categoryId): categoryId must be a whole number (int64), got "x1"; line 6, column 1 (name): "name" must be a non-empty string; line 6, column 3 (status)',
    );
    await expect(read('name,categoryId\nRex,1,extra\n', 'in.csv')).rejects.toThrow(
      'line 2: 3 cells, the header has 2',
    );
    await expect(read('name,categoryId\n"Rex,1\n', 'in.csv')).rejects.toThrow(
      /line 2: not valid CSV: a quoted field starts here and is never closed/,
    );
  });

  it('refuses a record longer than a record may be, however it is spelled: commas alone too', async () => {
    const commas = `name,categoryId\nRex,1\n"two\nlines",2\nx,1${','.repeat(RECORD_MAX_CHARS)}\nLast,1\n`;
    const quoted = `name,categoryId\n"${'a,\n'.repeat(RECORD_MAX_CHARS / 3)}",1\n`;
    for (const [text, line] of [
      [commas, 5],
      [quoted, 2],
    ] as const) {
      await expect(read(text, 'in.csv', undefined, 4096)).rejects.toThrow(
        `in.csv, line ${line}: a record longer than 1,048,576 characters`,
      );
    }
    // Right at the limit, a record is a record.
    const atLimit = `name,categoryId\n${'n'.repeat(RECORD_MAX_CHARS - 2)},1\n`;
    expect((await read(atLimit, 'in.csv')).pets).toHaveLength(1);
  });

  it('refuses unknown, doubled and missing columns by name', async () => {
    await expect(read('name,categoryId,colour\n', 'in.csv')).rejects.toThrow(
      'in.csv, line 1, column 3: unknown column "colour"',
    );
    await expect(read('name\tname\tcategoryId\n', 'in.tsv')).rejects.toThrow(
      'column 2: the column name is given twice',
    );
    await expect(read('name,status\nRex,sold\n', 'in.csv')).rejects.toThrow(
      /no categoryId column in its header/,
    );
  });

  it('says what a file looks like when its content is not its format', async () => {
    await expect(read('[{"name":"Rex","categoryId":1}]', 'pets.csv')).rejects.toThrow(
      'pets.csv looks like JSON, not CSV (by its name)',
    );
    await expect(read('id,name,categoryId\n1,Rex,1\n', 'pets.json')).rejects.toThrow(
      'pets.json looks like CSV (its first line is a header: id,name,categoryId), not JSON',
    );
    await expect(read('name\tcategoryId\nRex\t1\n', 'pets.ndjson')).rejects.toThrow(
      /looks like TSV/,
    );
  });

  it('reads standard input by its first line: a header is CSV or TSV, JSON as before', async () => {
    expect(all(await read('name,categoryId\nRex,1\n', '-'))).toEqual([
      { name: 'Rex', categoryId: 1 },
    ]);
    expect(all(await read('name\tcategoryId\nRex\t1\n', '-'))).toEqual([
      { name: 'Rex', categoryId: 1 },
    ]);
    expect(all(await read('{"name":"Rex","categoryId":1}\n', '-'))).toEqual([
      { name: 'Rex', categoryId: 1 },
    ]);
    // --input-format wins over the name.
    expect(all(await read('name,categoryId\nRex,1\n', 'pets.txt', 'csv'))).toHaveLength(1);
  });

  it('ignores the id of JSON and NDJSON listings too, and counts them', async () => {
    const records = await read(
      '{"id":5,"name":"Rex","categoryId":1}\n{"name":"Tom","categoryId":2}\n',
      'p.ndjson',
    );
    expect(records.ignoredIds).toBe(1);
    expect(all(records)).toEqual([
      { name: 'Rex', categoryId: 1 },
      { name: 'Tom', categoryId: 2 },
    ]);
    const array = await read('[{"id":5,"name":"Rex","categoryId":1}]', 'p.json');
    expect(array.ignoredIds).toBe(1);
    expect(all(array)).toEqual([{ name: 'Rex', categoryId: 1 }]);
  });

  it('takes any mix of CRLF, LF and CR (rows added by hand to a CRLF template), lines counted alike', async () => {
    const text = 'name,categoryId,status\r\nRex,1,available\nTom,2,\rAmy,3,sold\r\n';
    expect(all(await read(text, 'mixed.csv'))).toEqual([
      { name: 'Rex', categoryId: 1, status: 'available' },
      { name: 'Tom', categoryId: 2 },
      { name: 'Amy', categoryId: 3, status: 'sold' },
    ]);
    await expect(read('name,categoryId\rRex,1\rTom,2\rx,bad\r', 'cr.csv')).rejects.toThrow(
      'line 4, column 2 (categoryId)',
    );
    expect(all(await read('name\tcategoryId\rRex\t1\r\nTom\t2\n', 'cr.tsv'))).toHaveLength(2);
  });

  it('skips what a sheet leaves empty, trims a status, and shows a bad one', async () => {
    const text = 'name,categoryId,status,\n,,,\n   \nRex,1, sold ,\n';
    expect(all(await read(text, 'sheet.csv'))).toEqual([
      { name: 'Rex', categoryId: 1, status: 'sold' },
    ]);
    await expect(read('name,categoryId,\nRex,1,x\n', 'n.csv')).rejects.toThrow(
      'line 2, column 3: a value in a column with no name',
    );
    await expect(read('name,categoryId,status\nRex,1,Solds\n', 's.csv')).rejects.toThrow(
      'got "Solds"',
    );
  });

  it('reads headers and statuses as people type them, and says what it changed', async () => {
    const text = 'Name,Category ID,STATUS\nRex,1,Available\nTom,2,SOLD\nMia,3,pending\n';
    const records = await read(text, 'sheet.csv');
    expect(all(records)).toEqual([
      { name: 'Rex', categoryId: 1, status: 'available' },
      { name: 'Tom', categoryId: 2, status: 'sold' },
      { name: 'Mia', categoryId: 3, status: 'pending' },
    ]);
    expect(records.statusCaseChanged).toBe(2);
    for (const header of ['category_id', 'category-id', ' CategoryId ', 'CATEGORY ID']) {
      expect(all(await read(`name\t${header}\nRex\t1\n`, 'x.tsv', 'tsv'))).toEqual([
        { name: 'Rex', categoryId: 1 },
      ]);
    }
    await expect(read('name,categry,status\n', 'in.csv')).rejects.toThrow(
      'unknown column "categry" (did you mean categoryId?)',
    );
    await expect(read('nmae,categoryId\n', 'in.csv')).rejects.toThrow(
      'unknown column "nmae" (did you mean name?)',
    );
  });

  it('says which separator a one-cell header uses, and what a quoted header or NDJSON in .json is', async () => {
    await expect(read('name;categoryId;status\nRex;1;sold\n', 'semi.csv')).rejects.toThrow(
      'its columns are separated by ";", not commas',
    );
    await expect(read('name\tcategoryId\nRex\t1\n', 'tabs.csv')).rejects.toThrow(
      'separated by tabs, not commas',
    );
    expect(all(await read('"name","categoryId"\n"Rex","1"\n', '-'))).toEqual([
      { name: 'Rex', categoryId: 1 },
    ]);
    await expect(
      read('{"name":"A","categoryId":1}\n{"name":"B","categoryId":2}\n', 'p.json'),
    ).rejects.toThrow('is not one JSON array but one object a line (NDJSON)');
  });

  it('counts only the id cells that hold an id', async () => {
    const records = await read('id,name,categoryId\n5,Rex,1\n,Tom,2\n', 'ids.csv');
    expect(records.ignoredIds).toBe(1);
  });

  it('refuses a quote out of place rather than changing the name, and finds where an open quote starts', async () => {
    for (const row of ['"B""C"y,2', '"D" ,3', 'x"y,4']) {
      await expect(read(`name,categoryId\n${row}\n`, 'q.csv')).rejects.toThrow(
        /q\.csv, line 2: not valid CSV: (text after a closing quote|a quote inside a field that is not quoted)/,
      );
    }
    const open = 'name,categoryId\nA,1\n"B,2\nC,3\nD,4\n';
    await expect(read(open, 'u.csv')).rejects.toThrow(
      'u.csv, line 3: not valid CSV: a quoted field starts here and is never closed',
    );
  });
});

describe('a bad cell is named by the line its record starts on', () => {
  const lineEnd = fc.constantFrom('\n', '\r\n', '\r');
  const cell = fc
    .array(fc.constantFrom('a', ' ', ',', '"', '\n', '\r\n', '\r', 'é', '🐶'), { maxLength: 6 })
    .map((parts) => parts.join(''))
    .filter((name) => name.trim() !== '');
  const quoted = (text: string) => `"${text.replaceAll('"', '""')}"`;

  it('whatever line breaks quoted names hold, blank lines between rows and reads cut anywhere', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(cell, lineEnd, fc.nat({ max: 2 })), { minLength: 1, maxLength: 8 }),
        fc.nat({ max: 7 }),
        fc.integer({ min: 1, max: 40 }),
        async (rows, pick, chunk) => {
          const bad = pick % rows.length;
          let text = 'name,categoryId\n';
          let badLine = 0;
          rows.forEach(([name, end, blanks], index) => {
            text += end.repeat(blanks);
            if (index === bad) badLine = (text.match(/\r\n|\n|\r/g) ?? []).length + 1;
            text += `${quoted(name)},${index === bad ? 'x' : index + 1}${end}`;
          });
          const error = await readPets(text, 'in.csv', { chunk }).then(
            () => undefined,
            (caught: unknown) => caught as Error,
          );
          expect(error?.message).toContain(`in.csv: 1 bad record: line ${badLine}, column 2`);
        },
      ),
      { numRuns: 300 },
    );
  });
});
