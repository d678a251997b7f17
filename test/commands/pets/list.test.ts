import nock from 'nock';
import { describe, expect, it } from 'vitest';
import { main } from '../../../src/main.js';
import { fakeIO } from '../../helpers/fake-io.js';
import { FakeTransport, json } from '../../helpers/fake-transport.js';
import { freshHome } from '../../helpers/run-cli.js';
import { useNockGuard } from '../../helpers/nock-guard.js';
import { runPetsList } from '../../../src/commands/pets/list.js';
import { optionsOf } from '../../helpers/run-f.js';
import { verbContext } from '../../helpers/verb-context.js';

const ORIGIN = 'https://api.petstore.test';
const KEY = 'sk_live_TOPSECRET_9876';
const env = {
  HOME: freshHome(),
  PETSTORE_BASE_URL: `${ORIGIN}/v1`,
  PETSTORE_API_KEY: KEY,
};
const PETS =
  '[{"id":9007199254740993,"name":"Rex","categoryId":1,"status":"available"},{"id":2,"name":"Tom","categoryId":9223372036854775807}]';

useNockGuard();

function listReply(query: Record<string, string> = {}) {
  return nock(ORIGIN, { reqheaders: { authorization: `Bearer ${KEY}` } })
    .get('/v1/pets')
    .query(query)
    .reply(200, PETS, { 'content-type': 'application/json' });
}

describe('petstore pets list', () => {
  it('prints the service JSON exactly, compact, when piped', async () => {
    listReply({ status: 'available', limit: '5' });
    const io = fakeIO();
    const code = await main(['pets', 'list', '--status', 'available', '--limit', '5'], io, env);
    expect(code).toBe(0);
    expect(io.out()).toBe(PETS + '\n');
    expect(io.err()).toBe('');
  });

  it('prints a table with id, name, categoryId, status on a terminal', async () => {
    listReply();
    const io = fakeIO({ tty: true });
    expect(await main(['pets', 'list', '--no-color'], io, env)).toBe(0);
    const lines = io.out().split('\n');
    expect(lines[0]).toMatch(/^ID\s+NAME\s+CATEGORY ID\s+STATUS$/);
    expect(io.out()).toContain('9007199254740993');
    expect(io.out()).toContain('9223372036854775807');
    expect(io.out()).not.toContain('\u001b');
  });

  it('pretty-prints JSON on a terminal with --json', async () => {
    listReply();
    const io = fakeIO({ tty: true });
    expect(await main(['--json', 'pets', 'list'], io, env)).toBe(0);
    expect(io.out()).toContain('\n  {\n    "id": 9007199254740993,');
  });

  it('writes one object per line with -o ndjson', async () => {
    listReply();
    const io = fakeIO();
    expect(await main(['pets', 'list', '-o', 'ndjson'], io, env)).toBe(0);
    expect(io.out().trimEnd().split('\n')).toEqual([
      '{"id":9007199254740993,"name":"Rex","categoryId":1,"status":"available"}',
      '{"id":2,"name":"Tom","categoryId":9223372036854775807}',
    ]);
  });

  it('treats an empty list as success', async () => {
    nock(ORIGIN).get('/v1/pets').reply(200, '[]', { 'content-type': 'application/json' });
    const io = fakeIO({ tty: true });
    expect(await main(['pets', 'list'], io, env)).toBe(0);
    expect(io.out()).toBe('');
    expect(io.err()).toContain('No animals.');
  });

  it.each([['0'], ['101'], ['1.5'], ['abc']])(
    'rejects --limit %s with exit 2 before sending anything',
    async (limit) => {
      const io = fakeIO({ tty: true });
      expect(await main(['pets', 'list', '--limit', limit], io, env)).toBe(2);
      expect(io.err()).toContain(
        `petstore: --limit must be a whole number from 1 to 100, got "${limit}"`,
      );
      expect(io.out()).toBe('');
    },
  );

  it('refuses --all with --max-items (one or the other, as the synopsis says), exit 2', async () => {
    for (const args of [
      ['--all', '--max-items', '1'],
      ['--max-items', '1', '--all'],
    ]) {
      const io = fakeIO();
      expect(await main(['pets', 'list', ...args], io, env)).toBe(2);
      expect(io.err()).toContain("option '--all' cannot be used with option '--max-items <n>'");
    }
  });

  it('rejects an unknown --status with exit 2', async () => {
    const io = fakeIO();
    expect(await main(['pets', 'list', '--status', 'lost'], io, env)).toBe(2);
    expect(JSON.parse(io.err())).toEqual({
      code: 'usage',
      message: '--status must be one of available, pending, sold, got "lost"',
      status: 0,
      hint: 'Run: petstore pets list --help',
    });
  });

  it.each([
    ['--timeout', 'soon'],
    ['--retries', '-1'],
  ])('reports a bad %s in the JSON error form when output is JSON', async (flag, value) => {
    const io = fakeIO();
    expect(await main(['pets', 'list', flag, value], io, env)).toBe(2);
    expect(JSON.parse(io.err())).toMatchObject({ code: 'usage', status: 0 });
  });

  it('exits 3 with the service message on 401, in human form on a terminal', async () => {
    nock(ORIGIN)
      .get('/v1/pets')
      .reply(401, { code: 'unauthorized', message: 'API key invalid', status: 401 });
    const io = fakeIO({ tty: true });
    expect(await main(['pets', 'list'], io, env)).toBe(3);
    expect(io.err()).toContain('petstore: API key invalid (unauthorized, HTTP 401)');
    expect(io.err()).not.toContain('    at ');
    expect(io.err() + io.out()).not.toContain(KEY);
  });

  it('exits 3 with the Error shape on stderr in JSON mode', async () => {
    nock(ORIGIN)
      .get('/v1/pets')
      .reply(401, { code: 'unauthorized', message: 'API key invalid', status: 401 });
    const io = fakeIO();
    expect(await main(['pets', 'list', '-o', 'json'], io, env)).toBe(3);
    expect(JSON.parse(io.err())).toMatchObject({
      code: 'unauthorized',
      message: 'API key invalid',
      status: 401,
    });
    expect(io.out()).toBe('');
  });

  it('a bad value beside --help shows the help; combined short flags still find the command', async () => {
    for (const args of [
      ['--help', '--limit', 'x'],
      ['--status', 'bogus', '-h'],
    ]) {
      const io = fakeIO();
      expect(await main(['pets', 'list', ...args], io, env)).toBe(0);
      expect(io.out()).toContain('Usage: petstore pets list');
    }
    const io = fakeIO({ tty: true });
    expect(await main(['-qo', 'json', 'pets', 'list', '--limit', 'x'], io, env)).toBe(2);
    expect(io.err()).toContain('hint: Run: petstore pets list --help');
  });

  it('exits 3 without sending when no key is configured', async () => {
    const io = fakeIO({ tty: true });
    expect(
      await main(['pets', 'list'], io, { HOME: env.HOME, PETSTORE_BASE_URL: `${ORIGIN}/v1` }),
    ).toBe(3);
    expect(io.err()).toContain('no API key');
  });

  it('exits 2 for an unknown flag, with a hint naming this command', async () => {
    const io = fakeIO({ tty: true });
    expect(await main(['pets', 'list', '--colour'], io, env)).toBe(2);
    expect(io.err()).toBe(
      "petstore: unknown option '--colour'\nhint: Run: petstore pets list --help\n",
    );
  });

  it('never prints the key in verbose mode', async () => {
    listReply();
    const io = fakeIO();
    expect(await main(['-v', 'pets', 'list'], io, env)).toBe(0);
    expect(io.err()).toContain('authorization: Bearer ****');
    expect(io.err()).not.toContain(KEY);
  });
});

describe('help and version', () => {
  it('prints the version', async () => {
    const io = fakeIO();
    expect(await main(['--version'], io, {})).toBe(0);
    expect(io.out()).toMatch(/^\d+\.\d+\.\d+\n$/);
  });

  it('shows examples in pets list --help', async () => {
    const io = fakeIO();
    expect(await main(['pets', 'list', '--help'], io, {})).toBe(0);
    expect(io.out()).toContain('Usage: petstore pets list|ls [options]');
    expect(io.out()).toContain('$ petstore pets list --status available --limit 50');
  });
});

describe('pets list, through a recording transport', () => {
  it('sends the typed options as the query, with the key', async () => {
    const transport = new FakeTransport().on('GET', '/v1/pets?status=sold&limit=7', json(200, []));
    const io = fakeIO();
    expect(
      await main(['pets', 'list', '--status', 'sold', '--limit', '7'], io, env, { transport }),
    ).toBe(0);
    expect(transport.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(io.out()).toBe('[]\n');
    transport.verify();
  });

  it('warns once when a call that is not deprecated answers with Deprecation and Sunset', async () => {
    const headers = { deprecation: 'true', sunset: 'Sat, 01 Jun 2030 00:00:00 GMT' };
    const transport = new FakeTransport().on('GET', '/v1/pets', json(200, [], headers));
    const io = fakeIO();
    expect(await main(['pets', 'list'], io, env, { transport })).toBe(0);
    expect(io.err()).toBe(
      '{"warning":"GET /v1/pets is deprecated by the service; it will be removed on Sat, 01 Jun 2030 00:00:00 GMT"}\n',
    );
    transport.verify();
  });

  it.each([
    ['human', ['-o', 'table']],
    ['JSON', ['--json', '--error-format', 'json']],
  ])('strips control characters from the service error message (%s form)', async (_form, flags) => {
    const hostile = 'bad\u001b[2J\u001b]0;owned\u0007 key\u009b31m\r\nFAKE: all good';
    const transport = new FakeTransport().on(
      'GET',
      '/v1/pets',
      json(
        400,
        { code: 'bad\u001bcode', message: hostile, status: 400 },
        { 'x-request-id': 'r\u001b1' },
      ),
    );
    const io = fakeIO({ tty: true });
    expect(await main(['pets', 'list', ...flags], io, env, { transport })).toBe(5);
    const controls = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
    for (const line of io.err().trimEnd().split('\n')) {
      const text =
        flags[0] === '--json' ? Object.values(JSON.parse(line) as object).join(' ') : line;
      expect(text).not.toMatch(controls);
    }
    expect(io.err()).toContain('FAKE: all good');
    expect(
      io
        .err()
        .trimEnd()
        .split('\n')
        .some((line) => line.startsWith('FAKE')),
    ).toBe(false);
    transport.verify();
  });
});

describe('pets list: flags to options (runF)', () => {
  it.each([
    [['pets', 'list'], {}],
    [['pets', 'list', '--status', 'sold', '--limit', ' 7 '], { status: 'sold', limit: 7 }],
    [['pets', 'list', '--all'], { all: true }],
    [
      ['pets', 'list', '--max-items', '250', '--fields', 'name, id'],
      { maxItems: 250, fields: ['name', 'id'] },
    ],
    [
      ['pets', 'list', '--status', 'pending', '--fields', 'id'],
      { status: 'pending', fields: ['id'] },
    ],
  ])('%j', async (argv, options) => {
    expect(await optionsOf(argv)).toEqual(options);
  });
});

const pet = (id: number, name = `pet ${id}`) => ({ id, name, categoryId: 1, status: 'available' });

describe('runPetsList', () => {
  it('prints the page as JSON to a program, and says where the list ended', async () => {
    const transport = new FakeTransport().on(
      'GET',
      '/v1/pets',
      json(200, [pet(1), pet(2)], {
        link: '</v1/pets?cursor=2>; rel="next"',
      }),
    );
    const { ctx, io } = verbContext({ transport, raw: { output: 'json' } });
    await runPetsList(ctx, {});
    expect(JSON.parse(io.out())).toEqual([pet(1), pet(2)]);
    expect(io.err()).toContain('Showing the first 2 pets; the service has more.');
    transport.verify();
  });

  it('says "No animals." to a person, and prints nothing on stdout', async () => {
    const transport = new FakeTransport().on('GET', '/v1/pets?status=sold', json(200, []));
    const { ctx, io } = verbContext({ transport, raw: { output: 'table' }, tty: true });
    await runPetsList(ctx, { status: 'sold' });
    expect(io.out()).toBe('');
    expect(io.err()).toContain('No sold animals.');
  });

  it('--fields picks the columns, in CSV too', async () => {
    const transport = new FakeTransport().on('GET', '/v1/pets?limit=2', json(200, [pet(1, 'Rex')]));
    const { ctx, io } = verbContext({ transport, raw: { output: 'csv' } });
    await runPetsList(ctx, { limit: 2, fields: ['name', 'id'] });
    expect(io.out()).toBe('name,id\r\nRex,1\r\n');
  });
});
