import { option, phrase } from '../../core/phrase.js';
import { BrokenLink, brokenLinkError, type PetsPage } from '../../api/client.js';
import { PageLoopGuard } from '../page-guard.js';
import { IncompleteListError, PetstoreError } from '../../core/errors.js';
import type { Pet } from '../../core/interface.js';

export interface PageWalk {
  /** Fetches one page: the first, or the one a previous page linked. */
  fetch(from: URL | undefined): Promise<PetsPage>;
  /** Receives the pets of each page as it arrives (at most maxItems in all). */
  onPets(pets: Pet[]): void;
  /** Follow the links past the first page. */
  follow: boolean;
  /** Stop once this many pets have been handed over. */
  maxItems?: number | undefined;
  /** True once nobody reads the output any more (`| head`): no page is fetched past the one already asked for. */
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
  const guard = new PageLoopGuard();
  let pets = 0;
  let pages = 0;
  let coming = fetching(walk, undefined);
  for (;;) {
    let page: PetsPage;
    try {
      page = await coming;
    } catch (error) {
      if (pages === 0 || !(error instanceof PetstoreError)) throw error;
      throw new IncompleteListError(error, walk.printed?.() ?? pets, pages + 1);
    }
    pages++;
    const wanted = walk.maxItems === undefined ? page.pets.length : walk.maxItems - pets;
    const taken = page.pets.length > wanted ? page.pets.slice(0, wanted) : page.pets;
    // The first page's address too: a service may link back to it.
    guard.fetched(page.url, page.pets.length);
    const reachedMax = walk.maxItems !== undefined && pets + taken.length >= walk.maxItems;
    const next = page.next;
    const result = {
      pets: pets + taken.length,
      pages,
      more: next !== undefined || taken.length < page.pets.length,
      lastPageUnlinked: next === undefined,
    };
    const goOn = next !== undefined && walk.follow && !reachedMax && !walk.stopped?.();
    if (goOn) {
      if (next instanceof BrokenLink) {
        hand(walk, taken);
        throw new IncompleteListError(
          brokenLinkError(next, 200, pages),
          printed(walk, result),
          pages + 1,
        );
      }
      try {
        guard.follow(
          next,
          phrase`Report this to the service; ${option('maxItems', 'N')} stops after N pets.`,
        );
      } catch (failure) {
        hand(walk, taken);
        throw new IncompleteListError(failure as PetstoreError, printed(walk, result), pages + 1);
      }
      // The next page is asked for before this one is written: the service makes it while
      // this one is checked and printed.
      coming = fetching(walk, next);
    }
    hand(walk, taken);
    pets += taken.length;
    if (!goOn) return result;
  }
}

/** The page's fetch, its failure left for the await that reads it (none unhandled meanwhile). */
function fetching(walk: PageWalk, from: URL | undefined): Promise<PetsPage> {
  const page = walk.fetch(from);
  page.catch(() => undefined);
  return page;
}

function hand(walk: PageWalk, pets: Pet[]): void {
  if (pets.length > 0) walk.onPets(pets);
}

function printed(walk: PageWalk, result: WalkResult): number {
  return walk.printed?.() ?? result.pets;
}
