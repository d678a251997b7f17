import { describe, expect, it } from 'vitest';
import type { HttpRequest, HttpResponse } from '../../src/api/http.js';
import type { WriteRecord } from '../../src/api/write-record.js';
import { NetworkError } from '../../src/core/errors.js';
import { FakeTransport, json } from '../helpers/fake-transport.js';
import { useTestClients } from '../helpers/test-client.js';

const client = useTestClients({ apiKey: 'sk_test_write_record', baseUrl: 'https://svc.test/v1' });
const PET = { id: 7, name: 'Rex', categoryId: 1 };

/** A client whose writes are recorded, over `transport`. */
function recording(
  transport:
    FakeTransport | { send(r: HttpRequest): Promise<HttpResponse>; close(): Promise<void> },
) {
  const writes: WriteRecord[] = [];
  const { instance } = client({ transport, onWrite: (write) => writes.push(write) });
  return { instance, writes };
}

describe('every write a client sends is told once, with its fate', () => {
  it('an answered write: its status, key and one attempt; reads are not told', async () => {
    const transport = new FakeTransport()
      .on('POST', '/v1/pets', json(201, PET))
      .on('GET', '/v1/pets?limit=1', json(200, [PET]));
    const { instance, writes } = recording(transport);
    await instance.createPet({ name: 'Rex', categoryId: 1 }, { idempotencyKey: 'key-1' });
    await instance.listPetsPage({ limit: 1 });
    expect(writes).toHaveLength(1);
    expect(writes[0]).toMatchObject({
      method: 'POST',
      url: 'https://svc.test/v1/pets',
      idempotencyKey: 'key-1',
      outcome: 'answered',
      status: 201,
      replayed: false,
      attempts: 1,
    });
  });

  it('a replayed answer says so; a refusal is answered with its status', async () => {
    const transport = new FakeTransport()
      .on('POST', '/v1/pets', json(201, PET, { 'idempotent-replayed': 'true' }))
      .on('POST', '/v1/pets', json(400, { code: 'invalid', message: 'bad name' }));
    const { instance, writes } = recording(transport);
    await instance.createPet({ name: 'Rex', categoryId: 1 });
    await expect(instance.createPet({ name: 'x', categoryId: 1 })).rejects.toThrow();
    expect(writes.map((write) => [write.outcome, write.status, write.replayed])).toEqual([
      ['answered', 201, true],
      ['answered', 400, false],
    ]);
    // A refusal keeps why, as the service's Error body said it.
    expect(writes[1]!.error).toEqual({ code: 'invalid', message: 'bad name' });
    expect(writes[0]!.error).toBeUndefined();
  });

  it('no answer after sending is unknown; a refused connection is unsent, after its retries', async () => {
    let sent = 0;
    const failing = (code: string) => ({
      send: () => {
        sent++;
        return Promise.reject(new NetworkError(code, `cannot reach svc.test: ${code}`));
      },
      close: () => Promise.resolve(),
    });
    const reset = recording(failing('ECONNRESET'));
    await expect(reset.instance.createPet({ name: 'Rex', categoryId: 1 })).rejects.toThrow();
    expect(reset.writes).toHaveLength(1);
    expect(reset.writes[0]).toMatchObject({ outcome: 'unknown', attempts: 1 });

    sent = 0;
    const refused = recording(failing('ECONNREFUSED'));
    await expect(refused.instance.createPet({ name: 'Rex', categoryId: 1 })).rejects.toThrow();
    expect(refused.writes).toHaveLength(1);
    expect(refused.writes[0]).toMatchObject({ outcome: 'unsent', attempts: sent });
    expect(sent).toBeGreaterThan(1);
  });

  it("a replay of its own unanswered send is this call's write, not an earlier one's", async () => {
    let sends = 0;
    const transport = {
      send: () => {
        sends++;
        if (sends === 1) return Promise.reject(new NetworkError('ECONNRESET', 'reset after send'));
        return Promise.resolve(json(201, PET, { 'idempotent-replayed': 'true' })());
      },
      close: () => Promise.resolve(),
    };
    const { instance, writes } = recording(transport);
    await instance.createPet({ name: 'Rex', categoryId: 1 }, { resendWhenUnknown: true });
    expect(writes).toHaveLength(1);
    expect(writes[0]).toMatchObject({
      outcome: 'answered',
      status: 201,
      replayed: false,
      attempts: 2,
    });
  });

  it('an observer that throws does not turn a created pet into a failure', async () => {
    const transport = new FakeTransport().on('POST', '/v1/pets', json(201, PET));
    const log: string[] = [];
    const { instance } = client({
      transport,
      log: (line) => log.push(line),
      onWrite: () => {
        throw new Error('disk full');
      },
    });
    await expect(instance.createPet({ name: 'Rex', categoryId: 1 })).resolves.toMatchObject({
      name: 'Rex',
    });
    expect(log.join('\n')).toContain('the record of this write failed: Error: disk full');
  });
});
