import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { commandLineSecrets } from '../../../src/cli/command-line-secrets.js';
import { credentialSecrets, maskCredentials } from '../../../src/core/redaction/url-credentials.js';

/** Some characters of the text percent-encoded, in either case of hex digit. */
const someEncoded = (text: string) =>
  fc
    .array(fc.constantFrom('as is', 'lower', 'upper'), {
      minLength: text.length,
      maxLength: text.length,
    })
    .map((choices) =>
      Array.from(text, (char, at) => {
        const hex = char.charCodeAt(0).toString(16).padStart(2, '0');
        const choice = choices[at];
        return choice === 'as is' ? char : `%${choice === 'lower' ? hex : hex.toUpperCase()}`;
      }).join(''),
    );

describe('credentials named in a URL', () => {
  it('are found and masked however the name is spelled, after ? & # or ; (one an outside probe found)', () => {
    const name = fc
      .constantFrom('token', 'access_token', 'apiKey', 'client_secret', 'PASSWORD', 'sig', 'pwd')
      .chain((named) => fc.constantFrom(named, 'jwt', 'bearer'))
      .chain(someEncoded);
    const before = fc.constantFrom('?', '&', '#', ';', '?page=2&', '#x=1;', '%3F', '%3f');
    const equals = fc.constantFrom('=', '%3D');
    // An upper-case letter and a digit first: never part of the rest of the URL.
    const value = fc.stringMatching(/^[A-Z][0-9][A-Za-z0-9]{4,10}$/);
    fc.assert(
      fc.property(name, before, equals, value, (named, separator, is, secret) => {
        const url = `https://api.example.com/v1${separator}${named}${is}${secret}`;
        expect(credentialSecrets(url)).toContain(secret);
        if (is === '=' && !separator.startsWith('%')) {
          expect(maskCredentials(url)).not.toContain(secret);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('are data when not named as a credential', () => {
    expect(credentialSecrets('https://api.example.com/v1?page=2#section=intro;lang=en')).toEqual(
      [],
    );
  });
});

describe('the secrets of a command line', () => {
  it('are none in words that are data: no scheme, no ":" before an "@"', () => {
    // Names, times, addresses: masked run-wide, they would corrupt what the run prints.
    const word = fc.stringMatching(
      /^[A-Za-z0-9 ._@-]{1,30}$|^[A-Za-z0-9 ._-]{1,15}:[A-Za-z0-9 ._-]{1,15}$/,
    );
    fc.assert(
      fc.property(fc.array(word, { maxLength: 5 }), (argv) => {
        expect(commandLineSecrets(argv)).toEqual([]);
      }),
      { numRuns: 300 },
    );
    expect(commandLineSecrets(['Dr:Fluffington', '10:30', 'veterinarian@clinic.example'])).toEqual(
      [],
    );
  });

  it('are none in free text: a message or a name with colons, addresses, times and URLs', () => {
    // Outside probes saw "Reminder: ask bob@example.com" and "open 10:30" masked.
    const token = fc.constantFrom(
      'Reminder:',
      'Note:',
      'vet',
      'visit',
      '10:30,',
      '10:30',
      'bob@example.com',
      'jane@example.com)',
      '(owner:',
      'https://pets.example,',
      '(https://rex.example)',
      'see:',
      'rex@pets.example',
      'name=Max:',
      'Dr:Fluffington',
      'mailto:bob.smith@example.com',
      'lunch:tomorrow@noon',
      'cat:whiskers@12:30',
      'time:12:30:45@UTC+02:00',
      'Dr:Fluffington@home',
    );
    fc.assert(
      fc.property(fc.array(token, { minLength: 2, maxLength: 8 }), (tokens) => {
        expect(commandLineSecrets(['message', 'send', tokens.join(' ')])).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('are the password of a URL, wherever the word starts one or is shaped as credentials', () => {
    const password = fc.stringMatching(/^[A-Z][0-9][A-Za-z0-9]{6,12}$/);
    const shapes = [
      (secret: string) => `https://bob:${secret}@h.example`,
      (secret: string) => `--output=http://bob:${secret}@h.example/v1`,
      (secret: string) => `-bob:${secret}@h.example`,
    ];
    fc.assert(
      fc.property(password, fc.constantFrom(...shapes), (secret, shape) => {
        expect(commandLineSecrets(['pets', shape(secret)])).toContain(secret);
      }),
    );
    // Without a scheme, as the value of a URL flag.
    for (const line of [
      ['--base-url', 'bob%3AS3cretPass%40h.example'],
      ['--base-url=bob:S3cretPass@h.example', 'pets'],
      ['--quickstart-url', 'bob:S3cretPass@h.example:8080'],
    ]) {
      expect(commandLineSecrets(line)).toContain('S3cretPass');
    }
  });
});
