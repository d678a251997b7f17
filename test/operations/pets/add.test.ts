import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { WriteOptions } from '../../../src/api/options.js';
import { UsageError } from '../../../src/core/errors.js';
import type { NewPet, Pet } from '../../../src/core/interface.js';
import { addPet, previewAddPet } from '../../../src/operations/pets/add.js';
import { getPet } from '../../../src/operations/pets/get.js';
import { writeKey } from '../../../src/operations/write-key.js';

/** A service that creates what it is sent; `replay` answers as a replay of an earlier send. */
function petWriter(options: { replay?: boolean } = {}) {
  const sent: { pet: NewPet; options: WriteOptions }[] = [];
  const connections = { count: 0 };
  const service = {
    createPet(pet: NewPet, write: WriteOptions = {}): Promise<Pet> {
      sent.push({ pet, options: write });
      if (options.replay) write.onReplayed?.({ afterUnansweredSend: false });
      return Promise.resolve({ id: 7n, ...pet });
    },
    previewCreatePet(pet: NewPet, write: WriteOptions = {}) {
      return {
        method: 'POST',
        url: 'https://petstore.test/v1/pets',
        headers: { 'idempotency-key': write.idempotencyKey ?? '' },
        body: pet,
      };
    },
  };
  const client = () => {
    connections.count++;
    return Promise.resolve(service);
  };
  return { client, sent, connections };
}

describe('addPet', () => {
  it('sends the pet with its key and returns what the service created', async () => {
    const { client, sent } = petWriter();
    const key = writeKey(undefined);
    const result = await addPet(
      { client },
      { pet: { name: 'Rex', categoryId: 1n }, idempotencyKey: key },
    );
    expect(result).toEqual({ pet: { id: 7n, name: 'Rex', categoryId: 1n }, replayed: false });
    expect(sent[0]!.options.idempotencyKey).toBe(key);
  });

  it('a replayed answer is said once and marked: no new pet was created', async () => {
    const { client } = petWriter({ replay: true });
    let said = 0;
    const result = await addPet(
      { client },
      { pet: { name: 'Rex', categoryId: 1n }, idempotencyKey: 'k-1' },
      { onReplayed: () => said++ },
    );
    expect(result.replayed).toBe(true);
    expect(said).toBe(1);
  });

  it('refuses anything that is not a NewPet before sending it, whatever the front end gave', async () => {
    const notNewPets = fc.oneof(
      fc.record({ name: fc.constantFrom('', '  ', '\t'), categoryId: fc.constant(1n) }),
      fc.record({
        name: fc.string({ minLength: 1 }),
        categoryId: fc.double().filter((d) => !Number.isInteger(d)),
      }),
      fc.record({
        name: fc.constant('Rex'),
        categoryId: fc.constant(1n),
        status: fc.string().filter((s) => !['available', 'pending', 'sold'].includes(s)),
      }),
      fc.record({ name: fc.constant('Rex'), categoryId: fc.constant(1n), owner: fc.string() }),
    );
    await fc.assert(
      fc.asyncProperty(notNewPets, async (pet) => {
        const { client, sent, connections } = petWriter();
        const request = { pet: pet as unknown as NewPet, idempotencyKey: 'k' };
        await expect(addPet({ client }, request)).rejects.toThrow(UsageError);
        await expect(previewAddPet({ client }, request)).rejects.toThrow(/nothing was sent/);
        expect(sent).toHaveLength(0);
        expect(connections.count).toBe(0);
      }),
    );
  });

  it('a dry run shows the request with the key it would send, and sends nothing', async () => {
    const { client, sent } = petWriter();
    const preview = await previewAddPet(
      { client },
      { pet: { name: 'Rex', categoryId: 1n }, idempotencyKey: 'k-9' },
    );
    expect(preview.headers['idempotency-key']).toBe('k-9');
    expect(sent).toHaveLength(0);
  });

  it('writeKey keeps a given key and makes a new UUID otherwise', () => {
    expect(writeKey('given')).toBe('given');
    expect(writeKey(undefined)).toMatch(/^[0-9a-f-]{36}$/);
    expect(writeKey(undefined)).not.toBe(writeKey(undefined));
  });
});

describe('getPet', () => {
  it('asks for the pet by its int64 id, every digit kept', async () => {
    const asked: bigint[] = [];
    const client = {
      getPet(id: bigint): Promise<Pet> {
        asked.push(id);
        return Promise.resolve({ id, name: 'Big', categoryId: 1n });
      },
    };
    const pet = await getPet({ client }, 9007199254740993n);
    expect(asked).toEqual([9007199254740993n]);
    expect(pet.id).toBe(9007199254740993n);
  });
});
