import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/main.js';
import { compileQuery } from '../../src/output/query.js';
import { fakeIO } from '../helpers/fake-io.js';
import { FakeTransport, json } from '../helpers/fake-transport.js';
import { freshHome } from '../helpers/run-cli.js';
import { sandboxService } from '../helpers/sandbox-service.js';

const BASE = 'https://api.petstore.test/v1';
const env = () => ({
  HOME: freshHome(),
  PETSTORE_BASE_URL: BASE,
  PETSTORE_API_KEY: 'sk_test_query_checks',
  PETSTORE_QUICKSTART_URL: 'https://quick.petstore.test/quickstart',
});

async function run(args: string[], transport: FakeTransport) {
  const io = fakeIO({ stdin: '{"name":"A","categoryId":1}\n' });
  const code = await main(args, io, env(), { transport });
  return { code, out: io.out(), err: io.err() };
}

/** Expressions the library compiles but that are wrong whatever the data: one per class. */
const WRONG = [
  'nosuch(@)',
  'length()',
  'join(`","`)',
  '$x',
  'let $a = name in $b',
  '[::0]',
  '&name',
  "'",
  "'abc",
  '`"abc"',
  '"name',
  '[?id == `9223372036854775807`]',
  // An argument known before any data, of a type the function never takes there.
  'map(id, @)',
  'map(`1`, @)',
  'sort_by(@, `1`)',
  'length(`1`)',
  'abs(`true`)',
  'keys(`"s"`)',
  'starts_with(`1`, `"a"`)',
  'join(`","`, `[1,2]`)',
  'sum(`[1,"a"]`)',
  'max(`[{}]`)',
  'length(&id)',
  'type(&id)',
  // An &expression anywhere but where a function takes one.
  '@ | &c',
  '[&id]',
  '{a: &id}',
  'let $x = &a in $x',
  'not_null(&id)',
  'to_string(&id)',
  '[?&id]',
];

/** Commands that print JSON, writes among them. */
const COMMANDS = [
  ['pets', 'list'],
  ['pets', 'add', '--name', 'Rex', '--category-id', '1'],
  ['pets', 'import', '-'],
  ['message', 'send', 'hi'],
  ['api', '-X', 'POST', '/pets', '-F', 'name=Q', '-F', 'categoryId=1'],
  ['api', '-X', 'DELETE', '/pets/1'],
];

describe('--query is checked whole before anything is sent', () => {
  it('an expression wrong whatever the data is exit 2, and no request leaves', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...WRONG),
        fc.constantFrom(...COMMANDS),
        async (query, command) => {
          const transport = new FakeTransport();
          const result = await run([...command, '--query', query], transport);
          expect(result.code, `${command.join(' ')} --query ${query}: ${result.err}`).toBe(2);
          expect(result.err).toContain('--query is not a valid JMESPath expression');
          expect(transport.requests).toHaveLength(0);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('every one of them is refused when it is compiled', async () => {
    for (const expression of WRONG) {
      await expect(compileQuery(expression), expression).rejects.toThrow(
        '--query is not a valid JMESPath expression',
      );
    }
  });

  it('an expression right for some data compiles: functions, lets, slices, literals', async () => {
    for (const expression of [
      'sort_by(@, &name)[].id',
      'let $n = `3` in [?categoryId == $n]',
      '[::-1]',
      '`9007199254740991`',
      "'it\\'s'",
      '`"a\\`b"`',
      '"quoted name"',
    ]) {
      await expect(compileQuery(expression), expression).resolves.toBeTypeOf('function');
    }
  });
});

describe('int64 through --query', () => {
  const big = [
    { id: 1, categoryId: 9223372036854775807n },
    { id: 2, categoryId: -9223372036854775808n },
  ];

  it('type(), to_string(), to_number() and sort() take it exactly', async () => {
    const shaped = async (expression: string) => (await compileQuery(expression))(big);
    expect(await shaped('[].type(categoryId)')).toEqual(['number', 'number']);
    expect(await shaped('[].to_string(categoryId)')).toEqual([
      '9223372036854775807',
      '-9223372036854775808',
    ]);
    expect(await shaped('[].to_number(categoryId)')).toEqual(big.map((pet) => pet.categoryId));
    expect(await shaped('sort([].categoryId)')).toEqual([
      -9223372036854775808n,
      9223372036854775807n,
    ]);
    // Inside arrays and objects too, and back from text digit for digit.
    expect(await shaped('to_string([0].{c: categoryId})')).toBe('{"c":9223372036854775807}');
    expect(await shaped('[].to_number(to_string(categoryId))')).toEqual(
      big.map((pet) => pet.categoryId),
    );
    expect(await shaped('to_number(`"9007199254740993"`)')).toBe(9007199254740993n);
  });

  it('arithmetic on it fails with a hint that says why, not a JavaScript message alone', async () => {
    for (const expression of ['max([].categoryId)', 'sum([].categoryId)', 'abs([0].categoryId)']) {
      const query = await compileQuery(expression);
      let error: (Error & { hint?: string }) | undefined;
      try {
        query(big);
      } catch (caught) {
        error = caught as Error & { hint?: string };
      }
      expect(error?.message, expression).toContain('--query failed on the output');
      expect(error?.hint, expression).toContain('int64 past 2^53');
    }
  });
});

describe('an output --query fails on', () => {
  const created = '{"id":42,"name":"Q","categoryId":1}';

  it('after a write: printed whole with a warning, exit 0 (the write took effect)', async () => {
    const transport = new FakeTransport().on('POST', '/v1/pets', json(201, created));
    const result = await run(
      ['pets', 'add', '--name', 'Q', '--category-id', '1', '--query', 'abs(name)'],
      transport,
    );
    expect(result.code).toBe(0);
    expect(JSON.parse(result.out)).toEqual({ id: 42, name: 'Q', categoryId: 1 });
    expect(result.err).toContain('the command took effect, so its output is printed whole');
  });

  it('of a read: exit 2, nothing changed', async () => {
    const transport = new FakeTransport().on('GET', '/v1/pets/42', json(200, created));
    const result = await run(['pets', 'get', '42', '-q', '--query', 'abs(name)'], transport);
    expect(result.code).toBe(2);
    expect(result.out).toBe('');
  });
});

describe('--query sees what -o json would print, whatever the format', () => {
  it('one object from petstore api, in a table or CSV too', async () => {
    for (const format of ['table', 'csv', 'tsv', 'json']) {
      const transport = new FakeTransport().on(
        'GET',
        '/v1/secret',
        json(200, '{"n":9223372036854775807}'),
      );
      const result = await run(['api', '/secret', '-o', format, '--query', 'n'], transport);
      expect(result.out, format).toBe('9223372036854775807\n');
    }
  });

  it('a number past the range of a double is printed as the service wrote it, never as null', async () => {
    const transport = new FakeTransport().on(
      'GET',
      '/v1/big',
      json(200, '{"a":1e400,"b":[-1e309]}'),
    );
    expect((await run(['api', '/big', '-o', 'json'], transport)).out).toBe(
      '{"a":1e400,"b":[-1e309]}\n',
    );
  });

  it('a JSON string body is JSON; a text body is a string to the query', async () => {
    const string = new FakeTransport().on('GET', '/v1/str', json(200, '"hello"'));
    expect((await run(['api', '/str', '-o', 'json'], string)).out).toBe('"hello"\n');
    const text = new FakeTransport().on('GET', '/v1/txt', () => ({
      status: 200,
      headers: { 'content-type': 'text/plain' },
      text: 'hello',
    }));
    expect((await run(['api', '/txt', '--query', 'length(@)'], text)).out).toBe('5\n');
  });

  it('each pet a bulk add creates, in a table as in any format', async () => {
    const { env: sandboxEnv } = await sandboxService();
    for (const format of ['table', 'json', 'csv']) {
      const io = fakeIO({ stdin: '{"name":"A","categoryId":1}\n{"name":"B","categoryId":2}\n' });
      const args = ['pets', 'import', '-', '--again', '--concurrency', '1', '-o', format];
      expect(await main([...args, '--query', 'name'], io, sandboxEnv)).toBe(0);
      expect(io.out(), format).toBe('"A"\n"B"\n');
    }
  });

  it('each record of a bulk dry run', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'petstore-q-')), 'pets.ndjson');
    writeFileSync(file, '{"name":"A","categoryId":1}\n{"name":"B","categoryId":2}\n');
    const result = await run(
      ['pets', 'import', file, '--dry-run', '--query', 'body.name'],
      new FakeTransport(),
    );
    expect(result.out).toBe('"A"\n"B"\n');
  });

  it('a list it buffers: a page failing reports none printed', async () => {
    const transport = new FakeTransport()
      .on(
        'GET',
        '/v1/pets?limit=100',
        json(200, '[{"id":1,"name":"A","categoryId":1}]', {
          link: `<${BASE}/pets?limit=100&cursor=2>; rel="next"`,
        }),
      )
      .on(
        'GET',
        '/v1/pets?limit=100&cursor=2',
        json(500, '{"code":"x","message":"down","status":500}'),
      );
    const result = await run(
      ['pets', 'list', '--all', '--retries', '0', '--query', 'length(@)', '-o', 'json'],
      transport,
    );
    expect(result.code).toBe(6);
    expect(result.out).toBe('');
    expect(JSON.parse(result.err)).toMatchObject({ printed: 0 });
  });
});
