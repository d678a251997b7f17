import { describe, expect, it } from 'vitest';
import { runPetsAdd } from '../../../src/commands/pets/add.js';
import { runPetsGet } from '../../../src/commands/pets/get.js';
import { runPetsList } from '../../../src/commands/pets/list.js';
import { FakeTransport, json } from '../../helpers/fake-transport.js';
import { verbContext } from '../../helpers/verb-context.js';

/**
 * The pets verbs called directly with typed options and the test context (fake streams, a
 * scripted transport), as gh tests listRun(opts): what each makes of its operation's result.
 */

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
