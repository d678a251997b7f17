import type { Hint } from '../core/phrase.js';
import { ProtocolError } from '../core/errors.js';

/** A walk through a list stops here even if the service keeps linking new pages. */
export const MAX_PAGES = 100_000;
/** This many empty pages in a row that still link a next one: the service is looping. */
const MAX_EMPTY_PAGES_IN_A_ROW = 10;

/**
 * The rules that end a walk through linked pages (pets list --all, api --paginate) with an
 * error instead of looping forever: a link to an address seen before, too many pages, or too
 * many empty pages in a row that still link another.
 */
export class PageLoopGuard {
  private readonly seen = new Set<string>();
  private pages = 0;
  private emptyInARow = 0;

  /** A page came from `url` holding `items` items. */
  fetched(url: URL, items: number): void {
    this.seen.add(url.href);
    this.pages++;
    this.emptyInARow = items === 0 ? this.emptyInARow + 1 : 0;
  }

  /** Throws when following `next` would loop; else remembers it as seen. */
  follow(next: URL, hint: Hint): void {
    const loop = this.seen.has(next.href)
      ? `it linked page ${this.pages + 1} to an address it had already given (${next.pathname}${next.search})`
      : this.pages >= MAX_PAGES
        ? `it still linked a next page after ${MAX_PAGES} pages`
        : this.emptyInARow >= MAX_EMPTY_PAGES_IN_A_ROW
          ? `it sent ${this.emptyInARow} empty pages in a row, each linking another`
          : undefined;
    if (loop !== undefined) {
      throw new ProtocolError(200, `the service's pages do not end: ${loop}`, { hint });
    }
    this.seen.add(next.href);
  }
}
