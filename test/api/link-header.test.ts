import { describe, expect, it } from 'vitest';
import { BrokenLink, linkTarget } from '../../src/api/link-header.js';

const base = new URL('https://api.test/v1/pets?limit=2');
const next = (header: string | undefined) => {
  const target = linkTarget(header, 'next', base);
  return target instanceof BrokenLink ? target : target?.href;
};

describe('Link header (RFC 8288)', () => {
  it('finds rel="next" among several links, resolved against the request', () => {
    expect(next('</v1/pets?cursor=b>; rel="next"')).toBe('https://api.test/v1/pets?cursor=b');
    expect(next('<https://api.test/v1/pets?page=1>; rel=prev, <?page=3>; rel=next')).toBe(
      'https://api.test/v1/pets?page=3',
    );
    expect(next('<a>; rel="prev"; title="x, y; z", <b>; REL="Next last"')).toBe(
      'https://api.test/v1/b',
    );
  });

  it('is absent when no link has that relation, or the header is malformed', () => {
    expect(next(undefined)).toBeUndefined();
    expect(next('')).toBeUndefined();
    expect(next('</v1/pets?x>; rel="nextpage"')).toBeUndefined();
  });

  it('a link that names the relation but is not well formed is a broken link', () => {
    for (const header of [
      '</v1/pets?page2; rel="next"',
      'v1/pets?page=2; rel=next',
      '<a; rel="prev next"',
    ]) {
      expect(next(header), header).toBeInstanceOf(BrokenLink);
    }
    expect(next('</v1/pets?page2; rel="prev"')).toBeUndefined();
  });

  it('a target that is not a URL is a broken link, never taken for no link', () => {
    for (const target of [
      'http://[::1',
      'http://a b/',
      'http://:0/',
      'http://127.0.0.1:99999/v1',
    ]) {
      expect(next(`<${target}>; rel="next"`), target).toEqual(new BrokenLink(target));
    }
  });

  it('keeps commas inside the target', () => {
    expect(next('</v1/pets?ids=1,2>; rel="next"')).toBe('https://api.test/v1/pets?ids=1,2');
  });
});
