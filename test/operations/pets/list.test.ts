import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PetsPage } from '../../../src/api/client.js';
import type { ListPetsQuery, Pet } from '../../../src/core/interface.js';
import { listPets } from '../../../src/operations/pets/list.js';

/**
 * A service of `total` pets, paged by the limit asked (the default page when none), each page
 * linking the next while `linked`; records every page request.
 */
function service(total: number, options: { linked?: boolean; defaultPage?: number } = {}) {
  const asked: (ListPetsQuery | string)[] = [];
  const page = (start: number, size: number, status: string | undefined): PetsPage => {
    const pets: Pet[] = [];
    for (let id = start; id < Math.min(total, start + size); id++) {
      pets.push({ id: BigInt(id + 1), name: `pet ${id}`, categoryId: 1n, status });
    }
    const end = start + pets.length;
    const url = new URL(`https://petstore.test/v1/pets?start=${start}&limit=${size}`);
    const next =
      options.linked !== false && end < total
        ? new URL(`https://petstore.test/v1/pets?start=${end}&limit=${size}`)
        : undefined;
    return { pets, status: 200, headers: {}, url, next };
  };
  const client = {
    listPetsPage(from: ListPetsQuery | URL): Promise<PetsPage> {
      if (from instanceof URL) {
        asked.push(from.search);
        const start = Number(from.searchParams.get('start'));
        return Promise.resolve(page(start, Number(from.searchParams.get('limit')), undefined));
      }
      asked.push(from);
      return Promise.resolve(page(0, from.limit ?? options.defaultPage ?? 20, from.status));
    },
  };
  return { client, asked };
}

describe('listPets', () => {
  it('one page by default, at the size the service chooses, and says the service has more', async () => {
    const { client, asked } = service(50);
    const seen: Pet[] = [];
    const outcome = await listPets({ client }, {}, { onPets: (pets) => seen.push(...pets) });
    expect(seen).toHaveLength(20);
    expect(asked).toEqual([{ status: undefined, limit: undefined }]);
    expect(outcome.more).toBe(true);
    expect(outcome.end).toEqual({ kind: 'more', shown: 20 });
  });

  it('following pages asks the largest page the interface allows, and hands over every pet once', async () => {
    await fc.assert(
      // Totals at a page's edge are drawn on purpose: a random draw makes them rarely.
      fc.asyncProperty(
        fc.oneof(fc.integer({ min: 0, max: 450 }), fc.constantFrom(0, 100, 200)),
        async (total) => {
          const { client, asked } = service(total);
          const ids: bigint[] = [];
          const outcome = await listPets(
            { client },
            { all: true },
            { onPets: (pets) => ids.push(...pets.map((pet) => pet.id as bigint)) },
          );
          expect(ids).toEqual(Array.from({ length: total }, (_, i) => BigInt(i + 1)));
          expect(asked[0]).toEqual({ status: undefined, limit: 100 });
          expect(outcome.pages).toBe(Math.max(1, Math.ceil(total / 100)));
          expect(outcome.more).toBe(false);
          // One full page and no Link: the service may hold more and not say how to page to it.
          if (total === 100) expect(outcome.end).toEqual({ kind: 'unlinked', shown: 100 });
          else expect(outcome.end).toBeUndefined();
        },
      ),
      { numRuns: 40 },
    );
  });

  it('--max-items stops at the count, asking pages no larger than it, and says there was more', async () => {
    await fc.assert(
      fc.asyncProperty(
        // Totals at a page's edge (100, 200) are the cases a random draw rarely makes.
        fc.oneof(fc.integer({ min: 1, max: 300 }), fc.constantFrom(50, 100, 200, 300)),
        fc.integer({ min: 1, max: 300 }),
        async (total, maxItems) => {
          const { client, asked } = service(total);
          let handed = 0;
          const outcome = await listPets(
            { client },
            { maxItems },
            { onPets: (pets) => (handed += pets.length) },
          );
          expect(handed).toBe(Math.min(total, maxItems));
          expect((asked[0] as ListPetsQuery).limit).toBe(Math.min(100, maxItems));
          const pageSize = Math.min(100, maxItems);
          if (total > maxItems) expect(outcome.end).toEqual({ kind: 'stopped', maxItems });
          // One full page and no Link, the count not reached: a service that does not page
          // at all looks so, and may hold more.
          else if (total < maxItems && total === pageSize)
            expect(outcome.end?.kind).toBe('unlinked');
          else expect(outcome.end).toBeUndefined();
        },
      ),
      { numRuns: 60 },
    );
  });

  it('a full page without a Link is said to be maybe not all; a page that is not full, nothing', async () => {
    const full = service(100, { linked: false });
    const first = await listPets(
      { client: full.client },
      { all: true },
      { onPets: () => undefined },
    );
    expect(first.end).toEqual({ kind: 'unlinked', shown: 100 });
    const short = service(40, { linked: false });
    const second = await listPets(
      { client: short.client },
      { all: true },
      { onPets: () => undefined },
    );
    expect(second.end).toBeUndefined();
  });

  it('fetches no further page once nobody reads (stopped), but the one already asked for', async () => {
    const { client, asked } = service(1000);
    let reading = true;
    await listPets(
      { client, stopped: () => !reading },
      { all: true },
      {
        onPets: () => {
          reading = false;
        },
      },
    );
    // The second page was asked for as the first was written (the service makes it meanwhile).
    expect(asked).toHaveLength(2);
  });

  it('passes the status filter and counts pages for the progress line', async () => {
    const { client, asked } = service(250);
    const pages: number[] = [];
    await listPets(
      { client },
      { status: 'sold', all: true },
      { onPets: (_pets, page) => pages.push(page) },
    );
    expect(asked[0]).toEqual({ status: 'sold', limit: 100 });
    expect(pages).toEqual([1, 2, 3]);
  });
});
