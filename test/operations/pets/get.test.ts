import { describe, expect, it } from 'vitest';
import type { PetstoreClient } from '../../../src/api/client.js';
import { GET_PET_REMOVAL_DATE, type Pet } from '../../../src/core/interface.js';
import { hintForAgent } from '../../../src/mcp/wording.js';
import { GET_PET_DEPRECATION, getPet } from '../../../src/operations/pets/get.js';
import { commandLineHint } from '../../../src/output/wording.js';

describe('getPet', () => {
  it('asks the client for the pet by its id, every digit kept, and returns it as is', async () => {
    const asked: unknown[] = [];
    const pet: Pet = { id: 9007199254740993n, name: 'Big', categoryId: 1 };
    const client: Pick<PetstoreClient, 'getPet'> = {
      getPet: (id) => {
        asked.push(id);
        return Promise.resolve(pet);
      },
    };
    expect(await getPet({ client }, 9007199254740993n)).toBe(pet);
    expect(asked).toEqual([9007199254740993n]);
  });

  it("lets the client's error through: the front end says it", async () => {
    const client: Pick<PetstoreClient, 'getPet'> = {
      getPet: () => Promise.reject(new Error('no such pet')),
    };
    await expect(getPet({ client }, 1)).rejects.toThrow('no such pet');
  });

  it('says the deprecation with its removal date, in each front end its own way', () => {
    expect(commandLineHint(GET_PET_DEPRECATION)).toBe(
      `GET /pets/{petId} is deprecated and will be removed on ${GET_PET_REMOVAL_DATE}; use "petstore pets list --status STATUS" instead.`,
    );
    expect(hintForAgent(GET_PET_DEPRECATION)).toBe(
      `GET /pets/{petId} is deprecated and will be removed on ${GET_PET_REMOVAL_DATE}; use "list_pets with status STATUS" instead.`,
    );
  });
});
