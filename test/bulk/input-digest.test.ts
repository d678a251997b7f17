import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { NewPet } from '../../src/core/interface.js';
import { InputDigest } from '../../src/bulk/records.js';

const pet: fc.Arbitrary<NewPet> = fc.record(
  {
    name: fc.string({ minLength: 1, maxLength: 12 }),
    categoryId: fc.integer({ min: 1, max: 5 }),
    status: fc.constantFrom('available' as const, 'pending' as const, 'sold' as const),
  },
  { requiredKeys: ['name', 'categoryId'] },
);

function digests(pets: readonly NewPet[]) {
  const digest = new InputDigest();
  for (const one of pets) digest.add(one);
  return { ordered: digest.digest(), content: digest.content() };
}

describe("an input's content, whatever its order (once per sheet)", () => {
  it('is the same for the records in any order; the ordered digest tells orders apart', () => {
    fc.assert(
      fc.property(fc.array(pet, { minLength: 1, maxLength: 30 }), fc.integer(), (pets, seed) => {
        const shuffled = [...pets].sort(
          (a, b) =>
            ((JSON.stringify(a).length * seed) % 7) - ((JSON.stringify(b).length * seed) % 7),
        );
        expect(digests(shuffled).content).toBe(digests(pets).content);
        expect(digests([...pets].reverse()).content).toBe(digests(pets).content);
      }),
    );
  });

  it('differs when a record is added, removed, repeated or changed', () => {
    fc.assert(
      fc.property(fc.array(pet, { minLength: 1, maxLength: 30 }), pet, (pets, other) => {
        const { content } = digests(pets);
        expect(digests([...pets, other]).content).not.toBe(content);
        expect(digests([...pets, pets[0]!]).content).not.toBe(content);
        if (pets.length > 1) expect(digests(pets.slice(1)).content).not.toBe(content);
        const changed = { ...pets[0]!, name: `${pets[0]!.name}!` };
        expect(digests([changed, ...pets.slice(1)]).content).not.toBe(content);
      }),
    );
  });
});
