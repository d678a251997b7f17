import nock from 'nock';
import { describe, expect, it } from 'vitest';
import { main } from '../../../src/main.js';
import { fakeIO } from '../../helpers/fake-io.js';
import { useNockGuard } from '../../helpers/nock-guard.js';
import { ORIGIN, JSON_HEADERS, serviceEnv } from '../../helpers/service-env.js';
import { runPetsAdd } from '../../../src/commands/pets/add.js';
import { FakeTransport, json } from '../../helpers/fake-transport.js';
import { optionsOf } from '../../helpers/run-f.js';
import { verbContext } from '../../helpers/verb-context.js';

const env = serviceEnv('sk_live_COMMANDS_5555');

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

  it('names the target really used in a stderr notice on a terminal', async () => {
    nock(ORIGIN).post('/v1/pets').reply(201, '{"id":10,"name":"Rex","categoryId":1}', JSON_HEADERS);
    const io = fakeIO({ tty: true });
    expect(await main(['pets', 'add', '--name', 'Rex', '--category-id', '1'], io, env)).toBe(0);
    // PETSTORE_BASE_URL chose the service, not the (default) sandbox profile.
    expect(io.err()).toContain(`Added pet 10 (Rex) to ${ORIGIN}/v1.`);
    expect(io.err()).not.toContain('sandbox');
  });

  it.each([
    [['--name', 'Rex'], /needs --name and --category-id/],
    [['--name', ' ', '--category-id', '1'], /--name must not be empty/],
    [['--name', 'Rex', '--category-id', '1.5'], /--category-id must be a whole number/],
    [['--name', 'Rex', '--category-id', '0x10'], /--category-id must be a whole number/],
    [['--name', 'Rex', '--category-id', '9223372036854775808'], /out of the int64 range/],
    [['--name', 'Rex', '--category-id', '1', '--status', 'lost'], /--status must be one of/],
  ])('rejects %j with exit 2 before sending', async (args, message) => {
    // At a terminal, but told not to ask (what is missing would be asked for).
    const io = fakeIO({ tty: true });
    expect(await main(['pets', 'add', '--no-input', ...args], io, env)).toBe(2);
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

describe('pets add: flags to options (runF)', () => {
  it.each([
    [
      ['pets', 'add', '--name', 'Rex', '--category-id', '9223372036854775807'],
      { pet: { name: 'Rex', categoryId: 9223372036854775807n }, dryRun: false },
    ],
    [
      ['pets', 'add', '--name', 'A', '--category-id', '1', '--idempotency-key', 'k-1', '--dry-run'],
      { pet: { name: 'A', categoryId: 1 }, idempotencyKey: 'k-1', dryRun: true },
    ],
    [
      ['pets', 'add', '--name', 'Tom', '--category-id', '2', '--status', ' pending '],
      { pet: { name: 'Tom', categoryId: 2, status: 'pending' }, dryRun: false },
    ],
  ])('%j', async (argv, options) => {
    expect(await optionsOf(argv)).toEqual(options);
  });
});

const pet = (id: number, name = `pet ${id}`) => ({ id, name, categoryId: 1, status: 'available' });

describe('runPetsAdd', () => {
  it('adds the pet with the key given, and tells a person what was added', async () => {
    const transport = new FakeTransport().on('POST', '/v1/pets', (request) => {
      expect(request.headers['idempotency-key']).toBe('key-1');
      expect(JSON.parse(request.body ?? '')).toEqual({ name: 'Rex', categoryId: 1 });
      return json(201, pet(5, 'Rex'))();
    });
    const { ctx, io } = verbContext({ transport, raw: { output: 'json' }, tty: true });
    await runPetsAdd(ctx, {
      pet: { name: 'Rex', categoryId: 1n },
      idempotencyKey: 'key-1',
      dryRun: false,
    });
    expect(JSON.parse(io.out())).toEqual(pet(5, 'Rex'));
    expect(io.err()).toContain('Added pet 5 (Rex) to');
  });

  it('a replayed answer is said as such, not as an added pet', async () => {
    const transport = new FakeTransport().on(
      'POST',
      '/v1/pets',
      json(201, pet(5, 'Rex'), { 'idempotent-replayed': 'true' }),
    );
    const { ctx, io } = verbContext({ transport, raw: { output: 'json' }, tty: true });
    await runPetsAdd(ctx, {
      pet: { name: 'Rex', categoryId: 1n },
      idempotencyKey: 'k',
      dryRun: false,
    });
    expect(io.err()).toContain('The service had already received this request');
    expect(io.err()).not.toContain('Added pet');
  });

  it('without a name, in a pipe, asks nothing and says what is needed', async () => {
    const { ctx } = verbContext({ raw: { output: 'json' } });
    await expect(
      runPetsAdd(ctx, { pet: { categoryId: 1n }, idempotencyKey: undefined, dryRun: false }),
    ).rejects.toThrow('pets add needs --name and --category-id');
  });

  it('a dry run prints the request with the key redacted, and sends nothing', async () => {
    const transport = new FakeTransport();
    const { ctx, io } = verbContext({ transport, raw: { output: 'json' } });
    await runPetsAdd(ctx, {
      pet: { name: 'Rex', categoryId: 1n },
      idempotencyKey: 'k-2',
      dryRun: true,
    });
    const shown = JSON.parse(io.out()) as { method: string; headers: Record<string, string> };
    expect(shown.method).toBe('POST');
    expect(shown.headers.authorization).toBe('Bearer ****');
    expect(transport.requests).toEqual([]);
  });
});
