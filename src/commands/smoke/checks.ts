import type { PetstoreClient } from '../../api/client.js';
import type { Target } from '../../context/target.js';
import { ApiError } from '../../core/errors.js';
import type { NewPet, Pet } from '../../core/types.js';

/** What a check can use: the configured client, and one holding a key the service must refuse. */
export interface SmokeEnvironment {
  client: PetstoreClient;
  unauthenticated: PetstoreClient;
  target: Target;
  /** Pets this run created, for the checks that follow. */
  created: Pet[];
}

export interface SmokeCheck {
  name: string;
  writes: boolean;
  /** Returns a short detail on success, or 'skip: why'; throws to fail. */
  run(env: SmokeEnvironment): Promise<string>;
}

class CheckFailed extends Error {}

function expectThat(condition: boolean, message: string): asserts condition {
  if (!condition) throw new CheckFailed(message);
}

/** Passes when the request fails with exactly this HTTP status. */
async function expectRefusal(request: Promise<unknown>, status: number, otherwise: string) {
  try {
    await request;
  } catch (error) {
    if (error instanceof ApiError && error.status === status) return `${status} ${error.code}`;
    throw error;
  }
  throw new CheckFailed(otherwise);
}

export const SMOKE_CHECKS: SmokeCheck[] = [
  {
    name: 'list pets (GET /pets?limit=1)',
    writes: false,
    async run({ client }) {
      const pets = await client.listPets({ limit: 1 });
      expectThat(pets.length <= 1, `asked for at most 1 pet, got ${pets.length}`);
      return `${pets.length} pet(s)`;
    },
  },
  {
    name: 'filter by status (GET /pets?status=available)',
    writes: false,
    async run({ client }) {
      const pets = await client.listPets({ status: 'available', limit: 20 });
      const wrong = pets.filter((pet) => pet.status !== 'available');
      expectThat(wrong.length === 0, `${wrong.length} pet(s) with another status came back`);
      return `${pets.length} available pet(s)`;
    },
  },
  {
    name: 'refuse an invalid key (401)',
    writes: false,
    run: ({ unauthenticated }) =>
      expectRefusal(
        unauthenticated.listPets({ limit: 1 }),
        401,
        'the service accepted a key it cannot know',
      ),
  },
  {
    name: 'add a pet (POST /pets)',
    writes: true,
    async run({ client, created }) {
      const name = `petstore-smoke-${new Date().toISOString()}`;
      const pet = await client.createPet({ name, categoryId: 1, status: 'pending' });
      created.push(pet);
      expectThat(pet.name === name, `the created pet is named "${pet.name}", not "${name}"`);
      expectThat(pet.status === 'pending', `the created pet has status "${String(pet.status)}"`);
      return `id ${pet.id.toString()}`;
    },
  },
  {
    name: 'get the added pet (GET /pets/{petId}, deprecated)',
    writes: true,
    async run({ client, created }) {
      const pet = created[0];
      if (!pet) return 'skip: no pet was added';
      const fetched = await client.getPet(pet.id);
      expectThat(fetched.id.toString() === pet.id.toString(), 'a different pet came back');
      expectThat(fetched.name === pet.name, `its name is "${fetched.name}", not "${pet.name}"`);
      return `id ${fetched.id.toString()}`;
    },
  },
  {
    name: 'reject a pet without categoryId (400)',
    writes: true,
    run: ({ client }) =>
      expectRefusal(
        // Deliberately not a NewPet: the interface requires categoryId, so this must be refused.
        client.createPet({ name: 'petstore-smoke-invalid' } as unknown as NewPet),
        400,
        'the service created a pet without the required categoryId',
      ),
  },
  {
    name: 'send a quickstart message (POST /messages)',
    writes: true,
    async run({ client, target }) {
      if (!target.quickstartUrl) return 'skip: the profile has no quickstart URL';
      const receipt = await client.sendMessage('petstore smoke check');
      return `${receipt.id} ${receipt.status}`;
    },
  },
];
