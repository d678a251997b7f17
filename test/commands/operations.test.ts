import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import nock from 'nock';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/main.js';
import { fakeIO } from '../helpers/fake-io.js';
import { freshHome } from '../helpers/run-cli.js';
import { useNockGuard } from '../helpers/nock-guard.js';

const ORIGIN = 'https://api.petstore.test';
const QUICKSTART = 'https://qs.petstore.test';
const KEY = 'sk_live_COMMANDS_5555';
const env = {
  HOME: freshHome(),
  PETSTORE_BASE_URL: `${ORIGIN}/v1`,
  PETSTORE_QUICKSTART_URL: QUICKSTART,
  PETSTORE_API_KEY: KEY,
};
const JSON_HEADERS = { 'content-type': 'application/json' };

useNockGuard();

describe('pets add', () => {
  it('posts the NewPet and prints the created Pet', async () => {
    nock(ORIGIN)
      .post('/v1/pets', { name: 'Rex', categoryId: 1, status: 'pending' })
      .reply(201, '{"id":10,"name":"Rex","categoryId":1,"status":"pending"}', JSON_HEADERS);
    const io = fakeIO();
    const code = await main(
      ['pets', 'add', '--name', 'Rex', '--category-id', '1', '--status', 'pending'],
      io,
      env,
    );
    expect(code).toBe(0);
    expect(io.out()).toBe('{"id":10,"name":"Rex","categoryId":1,"status":"pending"}\n');
  });

  it('names the profile in a stderr notice on a terminal', async () => {
    nock(ORIGIN).post('/v1/pets').reply(201, '{"id":10,"name":"Rex","categoryId":1}', JSON_HEADERS);
    const io = fakeIO({ tty: true });
    expect(await main(['pets', 'add', '--name', 'Rex', '--category-id', '1'], io, env)).toBe(0);
    expect(io.err()).toContain('Added pet 10 (Rex) in profile');
  });

  it.each([
    [['--name', 'Rex'], /needs --name and --category-id/],
    [['--name', ' ', '--category-id', '1'], /--name must not be empty/],
    [['--name', 'Rex', '--category-id', '1.5'], /--category-id must be a whole number/],
    [['--name', 'Rex', '--category-id', '0x10'], /--category-id must be a whole number/],
    [['--name', 'Rex', '--category-id', '9223372036854775808'], /out of the int64 range/],
    [['--name', 'Rex', '--category-id', '1', '--status', 'lost'], /--status must be one of/],
  ])('rejects %j with exit 2 before sending', async (args, message) => {
    const io = fakeIO({ tty: true });
    expect(await main(['pets', 'add', ...args], io, env)).toBe(2);
    expect(io.err()).toMatch(message);
  });

  it('exits 5 with the service message on 400', async () => {
    nock(ORIGIN)
      .post('/v1/pets')
      .reply(400, { code: 'invalid_body', message: 'name too long', status: 400 }, JSON_HEADERS);
    const io = fakeIO({ tty: true });
    expect(await main(['pets', 'add', '--name', 'R', '--category-id', '1'], io, env)).toBe(5);
    expect(io.err()).toContain('petstore: name too long (invalid_body, HTTP 400)');
  });

  it('exits 6 on 503 after exactly one request', async () => {
    nock(ORIGIN)
      .post('/v1/pets')
      .reply(503, { code: 'unavailable', message: 'down', status: 503 }, JSON_HEADERS);
    const io = fakeIO();
    expect(await main(['pets', 'add', '--name', 'R', '--category-id', '1'], io, env)).toBe(6);
  });
});

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
      .filter((line) => line.startsWith('warning:'));
    expect(warnings).toEqual([
      'warning: GET /pets/{petId} is deprecated and will be removed on 2030-12-05; use "petstore pets list --status STATUS" instead.',
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

describe('message send', () => {
  const receipt = { id: 'm1', message: 'hi', status: 'queued', createdAt: '2026-11-22T10:00:00Z' };

  it('sends TEXT and says plainly that a queued message is not delivered', async () => {
    nock(QUICKSTART).post('/messages', { message: 'hi' }).reply(200, receipt, JSON_HEADERS);
    const io = fakeIO();
    expect(await main(['message', 'send', 'hi'], io, env)).toBe(0);
    expect(JSON.parse(io.out())).toEqual(receipt);
    expect(io.err()).toContain('Message m1 is queued: accepted by the service, not yet delivered.');
  });

  it('shows id, status and createdAt in a table', async () => {
    nock(QUICKSTART).post('/messages').reply(201, receipt, JSON_HEADERS);
    const io = fakeIO({ tty: true });
    expect(await main(['message', 'send', 'hi', '--no-color'], io, env)).toBe(0);
    expect(io.out()).toMatch(/│ id\s+│ status\s+│ createdAt\s+│/);
    expect(io.out()).toContain('2026-11-22T10:00:00Z');
  });

  it('reads the message from --file and from stdin', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'petstore-msg-'));
    writeFileSync(join(dir, 'm.txt'), 'from a file\n');
    nock(QUICKSTART)
      .post('/messages', { message: 'from a file' })
      .reply(200, receipt, JSON_HEADERS);
    nock(QUICKSTART).post('/messages', { message: 'from stdin' }).reply(200, receipt, JSON_HEADERS);
    expect(await main(['message', 'send', '--file', join(dir, 'm.txt')], fakeIO(), env)).toBe(0);
    const io = fakeIO({ stdin: 'from stdin\n' });
    expect(await main(['message', 'send', '--file', '-'], io, env)).toBe(0);
  });

  it.each([
    [[], /TEXT or with --file/],
    [['a', '--file', 'x'], /TEXT or with --file/],
    [['   '], /the message is empty/],
    [['--file', '/nonexistent/m.txt'], /cannot read \/nonexistent\/m.txt: ENOENT/],
  ])('rejects %j with exit 2', async (args, message) => {
    const io = fakeIO();
    expect(await main(['message', 'send', ...args], io, env)).toBe(2);
    expect(io.err()).toMatch(message);
  });

  it('exits 5 on 400 and 3 on 401', async () => {
    nock(QUICKSTART)
      .post('/messages')
      .reply(400, { code: 'bad_request', message: 'missing message', status: 400 }, JSON_HEADERS);
    nock(QUICKSTART)
      .post('/messages')
      .reply(401, { code: 'unauthorized', message: 'bad key', status: 401 }, JSON_HEADERS);
    expect(await main(['message', 'send', 'x'], fakeIO(), env)).toBe(5);
    expect(await main(['message', 'send', 'x'], fakeIO(), env)).toBe(3);
  });
});

describe('cleartext guard', () => {
  it('refuses to send a key over http to a remote host', async () => {
    const io = fakeIO({ tty: true });
    const cleartext = { ...env, PETSTORE_BASE_URL: 'http://api.petstore.test/v1' };
    expect(await main(['pets', 'list'], io, cleartext)).toBe(2);
    expect(io.err()).toContain('refusing to send the API key over plain http to api.petstore.test');
  });

  it('allows it with --allow-insecure-http', async () => {
    nock('http://api.petstore.test').get('/v1/pets').reply(200, '[]', JSON_HEADERS);
    const cleartext = { ...env, PETSTORE_BASE_URL: 'http://api.petstore.test/v1' };
    expect(await main(['pets', 'list', '--allow-insecure-http'], fakeIO(), cleartext)).toBe(0);
  });
});
