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
  /** True once nobody takes the pets any more (`| head`): no further page is fetched. */
  stopped?: () => boolean;
}

export interface ListPetsEvents {
  /** Each page's pets as they arrive (at most maxItems in all). */
  onPets(pets: Pet[], pages: number): void;
  /** How many pets reached their reader (fewer than handed over when output is buffered). */
  printed?: () => number;
}

export interface ListPetsOutcome extends WalkResult {
  /** What a person should know about where the list ended, or undefined. */
  note: string | undefined;
}

const plural = (count: number) => `${count} pet${count === 1 ? '' : 's'}`;

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
  return { ...result, note: listNote(request, result, pageSize) };
}

/** Where the list ended, when a person should know: the service had more, or may have. */
function listNote(
  request: ListPetsRequest,
  result: WalkResult,
  pageSize: number | undefined,
): string | undefined {
  const follow = request.all === true || request.maxItems !== undefined;
  if (!follow && result.more) {
    return `Showing the first ${plural(result.pets)}; the service has more. Use --all for every page, or --max-items N.`;
  }
  if (request.maxItems !== undefined && result.more) {
    return `Stopped at --max-items ${request.maxItems}; the service has more.`;
  }
  const reachedMax = request.maxItems !== undefined && result.pets >= request.maxItems;
  // One full page and no Link: a service that does not paginate may hold more. A page that is
  // not full is the whole list: nothing to say.
  const fullPage = pageSize !== undefined && result.pets >= pageSize;
  if (follow && result.pages === 1 && result.lastPageUnlinked && !reachedMax && fullPage) {
    return `The service sent no Link rel="next" after a full page of ${plural(result.pets)}: if it holds more, it does not say how to page to them, so only this page was listed.`;
  }
  return undefined;
}
