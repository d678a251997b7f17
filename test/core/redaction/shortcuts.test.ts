import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { unfindableBecause } from '../../../src/core/redaction/index.js';
import {
  credentialSecrets,
  searchCredentials,
} from '../../../src/core/redaction/url-credentials.js';

/** Characters from a pool, as a string. */
const from = (pool: string, options: { minLength?: number; maxLength?: number } = {}) =>
  fc.array(fc.constantFrom(...Array.from(pool)), options).map((chars) => chars.join(''));

const ASCII = Array.from({ length: 128 }, (_, code) => String.fromCharCode(code)).join('');
/** ASCII, escapes' and URLs' characters weighted up, and some that hide or look alike. */
const anyText = fc.oneof(
  from(`${ASCII}%%%\\\\@@@:::///???&&&===`, { maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 30 }),
  from('ab1:/@%?=&#\u00a0\u200b\u001b\u0085\uff20\ufe6b\u212a', { maxLength: 30 }),
);

describe('the shortcuts of the secret searches', () => {
  it('give what the full search gives, for any text (the letter check)', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const letter = /\p{L}/u.test(text);
        expect(unfindableBecause(`${text}12345678`) === undefined).toBe(letter);
      }),
      { numRuns: 2000 },
    );
  });

  it('give what the full search gives for anything meant as a URL', () => {
    // URLs the shortcut takes, and each with one character put in anywhere: the boundary.
    const plainUrl = fc
      .tuple(
        fc.constantFrom('http', 'https', 'HTTP', 'hTTps'),
        from('aZ09._-', { minLength: 1, maxLength: 10 }),
        fc.option(from('0123456789', { maxLength: 5 })),
        fc.option(from('aZ09._-~/', { maxLength: 10 })),
      )
      .map(
        ([scheme, host, port, path]) =>
          `${scheme}://${host}${port === null ? '' : `:${port}`}${path === null ? '' : `/${path}`}`,
      );
    const odd = fc.oneof(
      fc.constantFrom(...Array.from(':@%?=&#/ \t\n\uff20\ufe6bxZ7.')),
      fc.constantFrom('?token=s3cret', '&key=k', '?a=1', '%40', '%2540', 'u:p@', ':pw@', '%3A'),
    );
    const nearlyPlain = fc
      .tuple(plainUrl, odd, fc.nat())
      .map(
        ([url, char, at]) =>
          url.slice(0, at % (url.length + 1)) + char + url.slice(at % (url.length + 1)),
      );
    const scheme = fc.constantFrom('http', 'https', 'ftp', 'socks5', 'h', '');
    const separator = fc.constantFrom('://', ':/', ':', '//', '', '%3A%2F%2F', ':///');
    const part = from('aZ09._-~:@%?=&#/ 4', { maxLength: 12 });
    // No scheme, no host: a query alone (`x?token=abc`), or a user and password alone.
    const bare = fc
      .tuple(
        fc.constantFrom('', 'x', 'api/v1'),
        fc.constantFrom('?', '&', '#', ';', ''),
        fc.constantFrom('token', 'page', 'sig', 'user:pass', 'bob'),
        fc.constantFrom('=', '@', ':'),
        from('aZ09', { maxLength: 8 }),
      )
      .map((parts) => parts.join(''));
    const loose = fc.tuple(scheme, separator, part, part).map((parts) => parts.join(''));
    fc.assert(
      fc.property(fc.oneof(plainUrl, nearlyPlain, loose, bare, anyText), (value) => {
        expect(credentialSecrets(value)).toEqual(searchCredentials(value));
      }),
      { numRuns: 4000 },
    );
  });

  it('take plain URLs and keys the short way', () => {
    // Not a check of the answer (the properties above are): that the shortcut is the common case.
    expect(credentialSecrets('https://api.example.com:8443/v1')).toEqual([]);
    expect(credentialSecrets('https://user:pw@api.example.com/v1')).toContain('pw');
  });
});
