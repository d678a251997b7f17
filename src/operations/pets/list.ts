import type { PetstoreClient } from '../../api/client.js';
import { LIST_LIMIT, type Pet, type PetStatus } from '../../core/interface.js';
import { walkPages, type WalkResult } from './page-walk.js';

/** What to list: one page, or the pages followed to the end or to a count. */
export interface ListPetsRequest {
  status?: PetStatus | undefined;
  /** The page size asked of the service. */
  limit?: number | undefined;
  /** Follow Link rel=next to the last page. */
  all?: boolean | undefined;
  /** Follow the pages until this many pets. */
  maxItems?: number | undefined;
}

export interface ListPetsDeps {
  client: Pick<PetstoreClient, 'listPetsPage'>;
  /** True once nobody takes the pets any more (`| head`): no page is fetched past the one already asked for. */
  stopped?: () => boolean;
}

export interface ListPetsEvents {
  /** Each page's pets as they arrive (at most maxItems in all). */
  onPets(pets: Pet[], pages: number): void;
  /** How many pets reached their reader (fewer than handed over when output is buffered). */
  printed?: () => number;
}

/**
 * Where a list ended, when its reader should know, for each front end to word: one page of
 * more (`more`), stopped at the count asked (`stopped`), or a full page with no link to a next
 * one from a service that may hold more (`unlinked`).
 */
export type ListEnd =
  | { kind: 'more'; shown: number }
  | { kind: 'stopped'; maxItems: number }
  | { kind: 'unlinked'; shown: number };

export interface ListPetsOutcome extends WalkResult {
  end: ListEnd | undefined;
}

/**
 * Lists pets: one page (the service's default size unless `limit`), or the pages followed by
 * their Link rel="next" (at the largest page the interface allows, for the fewest requests).
 * The outcome says whether the service had more than was listed.
 */
export async function listPets(
  deps: ListPetsDeps,
  request: ListPetsRequest,
  events: ListPetsEvents,
): Promise<ListPetsOutcome> {
  const { client } = deps;
  const follow = request.all === true || request.maxItems !== undefined;
  const pageSize =
    request.limit ??
    (follow ? Math.min(LIST_LIMIT.max, request.maxItems ?? LIST_LIMIT.max) : undefined);
  let pages = 0;
  const result = await walkPages({
    fetch: (next) => client.listPetsPage(next ?? { status: request.status, limit: pageSize }),
    onPets: (pets) => events.onPets(pets, ++pages),
    follow,
    maxItems: request.maxItems,
    stopped: deps.stopped,
    printed: events.printed,
  });
  return { ...result, end: listEnd(request, result, pageSize) };
}

/** Where the list ended, when its reader should know: the service had more, or may have. */
function listEnd(
  request: ListPetsRequest,
  result: WalkResult,
  pageSize: number | undefined,
): ListEnd | undefined {
  const follow = request.all === true || request.maxItems !== undefined;
  if (!follow && result.more) return { kind: 'more', shown: result.pets };
  if (request.maxItems !== undefined && result.more) {
    return { kind: 'stopped', maxItems: request.maxItems };
  }
  const reachedMax = request.maxItems !== undefined && result.pets >= request.maxItems;
  // One full page and no Link: a service that does not paginate may hold more. A page that is
  // not full is the whole list: nothing to say.
  const fullPage = pageSize !== undefined && result.pets >= pageSize;
  if (follow && result.pages === 1 && result.lastPageUnlinked && !reachedMax && fullPage) {
    return { kind: 'unlinked', shown: result.pets };
  }
  return undefined;
}
