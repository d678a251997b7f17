/**
 * A place in a sequence read in step with another: the item at hand (undefined past the
 * end), and a move to the next. What reads two ordered streams side by side (an input and
 * its journal) holds one item of each, never the sequence.
 */
export class Cursor<T> {
  private readonly items: Iterator<T, unknown>;
  current: T | undefined;

  constructor(items: Iterable<T>) {
    this.items = items[Symbol.iterator]();
    this.next();
  }

  /** Moves to the next item, and gives it. */
  next(): T | undefined {
    const next = this.items.next();
    this.current = next.done === true ? undefined : next.value;
    return this.current;
  }

  /** Moves past every item `before` says comes first, and gives the one it stops at. */
  skipWhile(before: (item: T) => boolean): T | undefined {
    while (this.current !== undefined && before(this.current)) this.next();
    return this.current;
  }
}
