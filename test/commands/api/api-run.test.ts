import { describe, expect, it } from 'vitest';
import { runApi } from '../../../src/commands/api/api.js';
import { FakeTransport, json } from '../../helpers/fake-transport.js';
import { optionsOf, runF } from '../../helpers/run-f.js';
import { verbContext } from '../../helpers/verb-context.js';

describe('petstore api: flags to options (runF)', () => {
  it.each([
    [['api', '/pets'], { path: '/pets', flags: { fields: [] } }],
    [
      ['api', '/pets', '--paginate', '-i', '-H', 'X-Trace: 1'],
      {
        path: '/pets',
        flags: { paginate: true, include: true, header: ['X-Trace: 1'], fields: [] },
      },
    ],
    [
      ['api', '/pets', '-X', 'POST', '-f', 'name=Rex', '-F', 'categoryId=1', '--dry-run'],
      {
        path: '/pets',
        flags: {
          method: 'POST',
          dryRun: true,
          fields: [
            { typed: false, text: 'name=Rex' },
            { typed: true, text: 'categoryId=1' },
          ],
        },
      },
    ],
  ])('%j', async (argv, expected) => {
    const options = (await optionsOf(argv)) as { path: string; flags: Record<string, unknown> };
    // -f and -F are also kept apart as commander parsed them; the request reads `fields`.
    const flags = Object.fromEntries(
      Object.entries(options.flags).filter(([name]) => name !== 'rawField' && name !== 'field'),
    );
    expect({ path: options.path, flags }).toEqual(expected);
  });

  it('refuses a line with no PATH before the verb runs', async () => {
    const result = await runF(['api']);
    expect(result.code).toBe(2);
    expect(result.received).toEqual([]);
  });
});

describe('runApi', () => {
  it('sends the request the flags build and prints the answer as it came', async () => {
    const transport = new FakeTransport().on(
      'GET',
      '/v1/store/orders?limit=2',
      json(200, [{ id: 1 }]),
    );
    const { ctx, io } = verbContext({ transport, raw: { output: 'json' } });
    await runApi(ctx, {
      path: '/store/orders',
      flags: { method: 'GET', fields: [{ typed: true, text: 'limit=2' }] },
    });
    expect(JSON.parse(io.out())).toEqual([{ id: 1 }]);
    transport.verify();
  });

  it('a write goes with an Idempotency-Key; a dry run shows it redacted and sends nothing', async () => {
    const transport = new FakeTransport();
    const { ctx, io } = verbContext({ transport, raw: { output: 'json' } });
    await runApi(ctx, {
      path: '/pets',
      flags: {
        method: 'POST',
        dryRun: true,
        idempotencyKey: 'api-key-1',
        fields: [{ typed: false, text: 'name=Rex' }],
      },
    });
    const shown = JSON.parse(io.out()) as { method: string; headers: Record<string, string> };
    expect(shown.method).toBe('POST');
    expect(shown.headers['idempotency-key']).toBe('api-key-1');
    expect(shown.headers.authorization).toBe('Bearer ****');
    expect(transport.requests).toEqual([]);
  });

  it('-i puts the status and headers on stderr, as JSON objects when errors are JSON', async () => {
    const transport = new FakeTransport().on('GET', '/v1/pets', json(200, []));
    const { ctx, io } = verbContext({ transport, raw: { output: 'json', errorFormat: 'json' } });
    await runApi(ctx, { path: '/pets', flags: { include: true, fields: [] } });
    const first = JSON.parse(io.err().split('\n')[0]!) as { response: { status: number } };
    expect(first.response.status).toBe(200);
    expect(io.out().trim()).toBe('[]');
  });
});
