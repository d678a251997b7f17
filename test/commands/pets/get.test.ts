import nock from 'nock';
import { describe, expect, it } from 'vitest';
import { main } from '../../../src/main.js';
import { fakeIO } from '../../helpers/fake-io.js';
import { useNockGuard } from '../../helpers/nock-guard.js';
import { ORIGIN, JSON_HEADERS, serviceEnv } from '../../helpers/service-env.js';
import { runPetsGet } from '../../../src/commands/pets/get.js';
import { FakeTransport, json } from '../../helpers/fake-transport.js';
import { optionsOf } from '../../helpers/run-f.js';
import { verbContext } from '../../helpers/verb-context.js';

const env = serviceEnv('sk_live_COMMANDS_5555');

useNockGuard();

describe('pets get', () => {
  it('warns about the deprecation once, even when the service also says so', async () => {
    nock(ORIGIN)
      .get('/v1/pets/5')
      .reply(200, '{"id":5,"name":"Rex","categoryId":1}', {
        ...JSON_HEADERS,
        deprecation: 'true',
        sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
      });
    const io = fakeIO();
    expect(await main(['pets', 'get', '5'], io, env)).toBe(0);
    expect(io.out()).toBe('{"id":5,"name":"Rex","categoryId":1}\n');
    const warnings = io
      .err()
      .split('\n')
      .filter((line) => line.startsWith('{"warning":'));
    expect(warnings.map((line) => JSON.parse(line) as unknown)).toEqual([
      {
        warning:
          'GET /pets/{petId} is deprecated and will be removed on 2030-12-05; use "petstore pets list --status STATUS" instead.',
      },
    ]);
  });

  it('is silent with --quiet', async () => {
    nock(ORIGIN).get('/v1/pets/5').reply(200, '{"id":5,"name":"Rex","categoryId":1}', JSON_HEADERS);
    const io = fakeIO();
    expect(await main(['pets', 'get', '5', '-q'], io, env)).toBe(0);
    expect(io.err()).toBe('');
  });

  it('exits 4 on 404', async () => {
    nock(ORIGIN)
      .get('/v1/pets/404')
      .reply(404, { code: 'not_found', message: 'no such pet', status: 404 }, JSON_HEADERS);
    const io = fakeIO();
    expect(await main(['pets', 'get', '404', '-q'], io, env)).toBe(4);
    expect(JSON.parse(io.err())).toMatchObject({ code: 'not_found', status: 404 });
  });

  it.each(['1.5', '1e3', 'abc', '18446744073709551616'])(
    'rejects PET_ID %s with exit 2',
    async (id) => {
      const io = fakeIO();
      expect(await main(['pets', 'get', id], io, env)).toBe(2);
    },
  );
});

describe('pets get: flags to options (runF)', () => {
  it.each([
    [['pets', 'get', '9007199254740993'], { id: 9007199254740993n }],
    [['pets', 'get', '5', '--fields', 'name'], { id: 5n, fields: ['name'] }],
    [['pets', 'get', '007'], { id: 7n }],
  ])('%j', async (argv, options) => {
    // An int64 comes as a number when it is exact as one, else as a bigint.
    const got = (await optionsOf(argv)) as { id: number | bigint };
    expect({ ...got, id: BigInt(got.id) }).toEqual(options);
  });
});

describe('runPetsGet', () => {
  it('warns of the deprecation once and prints the pet, int64 exact', async () => {
    const big = '{"id":9007199254740993,"name":"Big","categoryId":1}';
    const transport = new FakeTransport().on('GET', '/v1/pets/9007199254740993', json(200, big));
    const { ctx, io } = verbContext({ transport, raw: { output: 'json' } });
    await runPetsGet(ctx, { id: 9007199254740993n });
    expect(io.out()).toContain('"id":9007199254740993');
    expect(io.err().match(/is deprecated and will be removed on 2030-12-05/g)).toHaveLength(1);
  });
});
