import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/main.js';
import { compileQuery } from '../../src/output/query.js';
import { UsageError } from '../../src/core/errors.js';
import { stringifyJson } from '../../src/core/json.js';
import { fakeIO } from '../helpers/fake-io.js';
import { FakeTransport, json } from '../helpers/fake-transport.js';
import { freshHome } from '../helpers/run-cli.js';
import { sandboxService } from '../helpers/sandbox-service.js';

const BASE = 'https://api.petstore.test/v1';
const env = () => ({
  HOME: freshHome(),
  PETSTORE_BASE_URL: BASE,
  PETSTORE_API_KEY: 'sk_test_query_key',
});

/** Pets in pages of two, linked with rel=next, as a service that pages does. */
function pagedPets(transport: FakeTransport, pets: object[]) {
  for (let from = 0; from < pets.length; from += 2) {
    const path = from === 0 ? '/v1/pets?limit=2' : `/v1/pets?limit=2&cursor=${from}`;
    const headers: Record<string, string> = {};
    if (from + 2 < pets.length) {
      headers.link = `<${BASE}/pets?limit=2&cursor=${from + 2}>; rel="next"`;
    }
    transport.on('GET', path, json(200, stringifyJson(pets.slice(from, from + 2)), headers));
  }
  return transport;
}

const PETS = [
  { id: 1, name: 'Rex', categoryId: 9223372036854775807n, status: 'sold' },
  { id: 2, name: 'Tom', categoryId: 2, status: 'available' },
  { id: 3, name: 'Kit', categoryId: 9007199254740993n, status: 'sold' },
];
const PETS_JSON =
  '[{"id":1,"name":"Rex","categoryId":9223372036854775807,"status":"sold"},{"id":2,"name":"Tom","categoryId":2,"status":"available"},{"id":3,"name":"Kit","categoryId":9007199254740993,"status":"sold"}]';

async function run(args: string[], transport: FakeTransport) {
  const io = fakeIO();
  const code = await main(args, io, env(), { transport });
  return { code, out: io.out(), err: io.err() };
}

describe('--query', () => {
  it('projects and filters what a command prints as JSON, int64 past 2^53 digit for digit', async () => {
    const transport = new FakeTransport().on('GET', '/v1/pets?limit=20', json(200, PETS_JSON));
    const result = await run(
      ['pets', 'list', '--limit', '20', '--query', "[?status=='sold'].{n: name, c: categoryId}"],
      transport,
    );
    expect(result).toMatchObject({
      code: 0,
      out: '[{"n":"Rex","c":9223372036854775807},{"n":"Kit","c":9007199254740993}]\n',
    });
  });

  it('with --all sees the whole list (buffered), or each row with -o ndjson (as it comes)', async () => {
    const whole = await run(
      ['pets', 'list', '--all', '--limit', '2', '--query', 'length(@)'],
      pagedPets(new FakeTransport(), PETS),
    );
    expect(whole).toMatchObject({ code: 0, out: '3\n' });
    const rows = await run(
      [
        'pets',
        'list',
        '--all',
        '--limit',
        '2',
        '-o',
        'ndjson',
        '--query',
        'status==`"sold"` && name || null',
      ],
      pagedPets(new FakeTransport(), PETS),
    );
    expect(rows).toMatchObject({ code: 0, out: '"Rex"\n"Kit"\n' });
  });

  it('an invalid expression is exit 2 before any request', async () => {
    const transport = new FakeTransport();
    const result = await run(['pets', 'list', '--query', "[?status=='sold'"], transport);
    expect(result.code).toBe(2);
    expect(result.err).toContain('--query is not a valid JMESPath expression');
    expect(transport.requests).toHaveLength(0);
  });

  it('an expression that fails on the output is exit 2, said so, never a crash', async () => {
    const transport = new FakeTransport().on('GET', '/v1/pets?limit=20', json(200, PETS_JSON));
    const result = await run(
      ['pets', 'list', '--limit', '20', '--query', 'sort_by(@, &categoryId)'],
      transport,
    );
    expect(result.code).toBe(2);
    expect(result.err).toContain('--query failed on the output');
  });

  it('applies to a single record, a dry run and petstore api alike', async () => {
    const one = await run(
      ['pets', 'get', '1', '-q', '--query', 'categoryId'],
      new FakeTransport().on(
        'GET',
        '/v1/pets/1',
        json(200, '{"id":1,"name":"Rex","categoryId":9223372036854775807}'),
      ),
    );
    expect(one.out).toBe('9223372036854775807\n');
    const dry = await run(
      ['pets', 'add', '--name', 'Rex', '--category-id', '1', '--dry-run', '--query', 'body.name'],
      new FakeTransport(),
    );
    expect(dry.out).toBe('"Rex"\n');
    const api = await run(
      ['api', '/store/orders', '--query', '[].id'],
      new FakeTransport().on('GET', '/v1/store/orders', json(200, '[{"id":5},{"id":6}]')),
    );
    expect(api.out).toBe('[5,6]\n');
  });

  it('shapes each pet a bulk add prints', async () => {
    const { env: sandboxEnv } = await sandboxService();
    const io = fakeIO({ stdin: '{"name":"A","categoryId":1}\n{"name":"B","categoryId":2}\n' });
    expect(
      await main(['pets', 'import', '-', '--concurrency', '1', '--query', 'name'], io, sandboxEnv),
    ).toBe(0);
    expect(io.out()).toBe('"A"\n"B"\n');
  });

  it.each([
    [['-o', 'table'], true],
    [['-o', 'csv'], true],
    [['-o', 'json'], false],
    [[], false],
  ])(
    'with %j says once that the query prints JSON where a table was asked: %s',
    async (flags, said) => {
      const { env: sandboxEnv } = await sandboxService();
      const io = fakeIO({ tty: true });
      expect(await main(['pets', 'list', ...flags, '--query', 'length(@)'], io, sandboxEnv)).toBe(
        0,
      );
      expect(io.out()).toBe('0\n');
      const warned = io.err().match(/--query prints its result as JSON/g) ?? [];
      expect(warned).toHaveLength(said ? 1 : 0);
    },
  );

  it('any expression on any list either gives JSON or a usage error', async () => {
    const value = fc.jsonValue();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(
          'length(@)',
          '[0]',
          '[].name',
          'max_by(@, &id)',
          'keys(@)',
          '@ | [?a]',
          'sort(@)',
          'join(`", "`, @)',
        ),
        value,
        async (expression, data) => {
          const query = await compileQuery(expression);
          try {
            query(data);
          } catch (error) {
            expect(error).toBeInstanceOf(UsageError);
          }
        },
      ),
    );
  });
});

describe('a bare word in backticks (the AWS CLI habit)', () => {
  const pets = [
    { id: 1, name: 'Rex', categoryId: 1, status: 'sold' },
    { id: 2, name: 'it`s', categoryId: 1, status: 'available' },
    { id: 3, name: "Kit's", categoryId: 1, status: 'sold' },
  ];

  it.each([
    ['[?status==`sold`].id', [1, 3]],
    ['[?status == ` sold `].id', [1, 3]],
    ["[?status==`sold` && name!='x'].id", [1, 3]],
    ['[?name==`it\\`s`].id', [2]],
    ["[?name==`Kit's`].id", [3]],
    ['[?status==`"sold"`].id', [1, 3]],
    ["[?name=='a `b` c'].id", []],
  ])('%s reads it as the string it spells', async (expression, ids) => {
    const warnings: string[] = [];
    const query = await compileQuery(expression, (message) => warnings.push(message));
    expect(query(pets)).toEqual(ids);
    // One warning when one was read so; none for JSON, or backticks inside a string.
    const legacy = /`[^"`\\]*(?:\\`[^`]*)?`/.test(expression.replace(/'[^']*'/g, ''));
    expect(warnings).toHaveLength(legacy && !expression.includes('`"') ? 1 : 0);
  });

  it('says once, at a terminal, how to write it', async () => {
    const transport = new FakeTransport().on('GET', '/v1/pets', json(200, pets));
    const io = fakeIO({ tty: true });
    const env = {
      HOME: freshHome(),
      PETSTORE_BASE_URL: 'https://api.petstore.test/v1',
      PETSTORE_API_KEY: 'sk_test_query_legacy',
    };
    const code = await main(
      ['pets', 'list', '--query', '[?status==`sold` || status==`sold`].name'],
      io,
      env,
      { transport },
    );
    expect(code).toBe(0);
    expect(io.err()).toBe(
      "warning: --query: `sold` is not JSON; read as 'sold' (write 'sold', or `\"sold\"`: backticks hold JSON)\n",
    );
  });
});

describe('ordering comparisons on int64 past 2^53', () => {
  it('answer exactly, for any ids and any threshold a literal can hold', async () => {
    const id = fc.oneof(
      fc.bigInt({ min: 2n ** 53n, max: 2n ** 63n - 1n }),
      fc.bigInt({ min: -(2n ** 63n), max: -(2n ** 53n) }),
      fc.integer({ min: -1000, max: 1000 }).map(BigInt),
    );
    const ops = ['>', '>=', '<', '<='] as const;
    const holds = (a: bigint, op: (typeof ops)[number], b: bigint) =>
      op === '>' ? a > b : op === '>=' ? a >= b : op === '<' ? a < b : a <= b;
    await fc.assert(
      fc.asyncProperty(
        fc.array(id, { minLength: 1, maxLength: 8 }),
        fc.constantFrom(...ops),
        fc.integer({ min: -(2 ** 53) + 1, max: 2 ** 53 - 1 }),
        fc.boolean(),
        async (ids, op, threshold, flipped) => {
          // As the client decodes them: an int64 past 2^53 a bigint, others numbers.
          const pets = ids.map((value, at) => ({
            name: `p${at}`,
            categoryId: value >= -(2n ** 53n) && value <= 2n ** 53n ? Number(value) : value,
          }));
          const expression = flipped
            ? `[?\`${threshold}\` ${op} categoryId].name`
            : `[?categoryId ${op} \`${threshold}\`].name`;
          const query = await compileQuery(expression);
          const expected = pets
            .filter((_pet, at) =>
              flipped
                ? holds(BigInt(threshold), op, ids[at]!)
                : holds(ids[at]!, op, BigInt(threshold)),
            )
            .map((pet) => pet.name);
          expect(query(pets)).toEqual(expected);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('finds the pet whose categoryId is 9007199254740993 above 9000', async () => {
    const query = await compileQuery('[?categoryId > `9000`].name');
    expect(
      query([
        { name: 'Big', categoryId: 9007199254740993n },
        { name: 'Small', categoryId: 7 },
      ]),
    ).toEqual(['Big']);
  });
});
