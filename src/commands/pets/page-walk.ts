import { BrokenLink, brokenLinkError, type PetsPage } from '../../api/client.js';
import { IncompleteListError, PetstoreError, ProtocolError } from '../../core/errors.js';
import type { Pet } from '../../core/types.js';

/** A walk through the list stops here even if the service keeps linking new pages. */
export const MAX_PAGES = 100_000;
/** This many empty pages in a row that still link a next one: the service is looping. */
const MAX_EMPTY_PAGES_IN_A_ROW = 10;

export interface PageWalk {
  /** Fetches one page: the first, or the one a previous page linked. */
  fetch(from: URL | undefined): Promise<PetsPage>;
  /** Receives the pets of each page as it arrives (at most maxItems in all). */
  onPets(pets: Pet[]): void;
  /** Follow the links past the first page. */
  follow: boolean;
  /** Stop once this many pets have been handed over. */
  maxItems?: number | undefined;
  /** True once nobody reads the output any more (`| head`): no further page is fetched. */
  stopped?: () => boolean;
  /** How many pets are on stdout (fewer than handed over when --query buffers the list). */
  printed?: () => number;
}

export interface WalkResult {
  pets: number;
  pages: number;
  /** The next page's link, when the walk stopped before the end (maxItems, or no --all). */
  more: boolean;
  /** The last page fetched had no Link rel=next at all. */
  lastPageUnlinked: boolean;
}

/**
 * Walks the pages of GET /pets by their Link rel="next", handing each page's pets over as it
 * arrives. A link seen before, or too many pages or empty pages, ends the walk with an error
 * instead of looping forever.
 */
export async function walkPages(walk: PageWalk): Promise<WalkResult> {
  const seen = new Set<string>();
  let from: URL | undefined;
  let pets = 0;
  let pages = 0;
  let emptyInARow = 0;
  for (;;) {
    let page: PetsPage;
    try {
      page = await walk.fetch(from);
    } catch (error) {
      if (pages === 0 || !(error instanceof PetstoreError)) throw error;
      throw new IncompleteListError(error, walk.printed?.() ?? pets, pages + 1);
    }
    pages++;
    // The first page's address too: a service may link back to it.
    seen.add(page.url.href);
    const wanted = walk.maxItems === undefined ? page.pets.length : walk.maxItems - pets;
    const taken = page.pets.length > wanted ? page.pets.slice(0, wanted) : page.pets;
    if (taken.length > 0) walk.onPets(taken);
    pets += taken.length;
    const reachedMax = walk.maxItems !== undefined && pets >= walk.maxItems;
    const next = page.next;
    const result = {
      pets,
      pages,
      more: next !== undefined || taken.length < page.pets.length,
      lastPageUnlinked: next === undefined,
    };
    if (next === undefined || !walk.follow || reachedMax || walk.stopped?.()) return result;
    if (next instanceof BrokenLink) {
      throw new IncompleteListError(
        brokenLinkError(next, 200, pages),
        walk.printed?.() ?? pets,
        pages + 1,
      );
    }
    emptyInARow = page.pets.length === 0 ? emptyInARow + 1 : 0;
    const loop = seen.has(next.href)
      ? `it linked page ${pages + 1} to an address it had already given (${next.pathname}${next.search})`
      : pages >= MAX_PAGES
        ? `it still linked a next page after ${MAX_PAGES} pages`
        : emptyInARow >= MAX_EMPTY_PAGES_IN_A_ROW
          ? `it sent ${emptyInARow} empty pages in a row, each linking another`
          : undefined;
    if (loop !== undefined) {
      const failure = new ProtocolError(200, `the service's pages do not end: ${loop}`, {
        hint: 'Report this to the service; --max-items N stops after N pets.',
      });
      throw new IncompleteListError(failure, walk.printed?.() ?? pets, pages + 1);
    }
    seen.add(next.href);
    from = next;
  }
}
