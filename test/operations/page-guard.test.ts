import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../../src/core/errors.js';
import { PageLoopGuard } from '../../src/operations/page-guard.js';

const page = (n: number) => new URL(`https://svc.test/v1/pets?cursor=${n}`);

describe('PageLoopGuard', () => {
  it('follows new addresses and refuses one already given', () => {
    const guard = new PageLoopGuard();
    guard.fetched(page(0), 20);
    guard.follow(page(1), 'hint');
    guard.fetched(page(1), 20);
    expect(() => guard.follow(page(0), 'stop here')).toThrow(ProtocolError);
    expect(() => guard.follow(page(0), 'stop here')).toThrow(/already given/);
  });

  it('refuses a tenth empty page in a row that links another, not a ninth', () => {
    const guard = new PageLoopGuard();
    for (let n = 0; n < 9; n++) {
      guard.fetched(page(n), 0);
      guard.follow(page(n + 1), 'hint');
    }
    guard.fetched(page(9), 0);
    expect(() => guard.follow(page(10), 'hint')).toThrow(/10 empty pages in a row/);
  });

  it('a page with items starts the count of empty ones again', () => {
    const guard = new PageLoopGuard();
    for (let n = 0; n < 30; n++) {
      guard.fetched(page(n), n % 5 === 4 ? 1 : 0);
      guard.follow(page(n + 1), 'hint');
    }
  });
});
