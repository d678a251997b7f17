import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/main.js';
import { fakeIO } from '../helpers/fake-io.js';
import { FakeTransport, json } from '../helpers/fake-transport.js';
import { freshHome } from '../helpers/run-cli.js';

/**
 * What a hostile service sends cannot drive the terminal or show a key, whatever path it takes
 * to stderr: a message, a stack trace under --verbose, a header, a URL in the verbose log.
 */

/** Characters a terminal acts on or hides: C0 (but tab and line feed), DEL, C1, bidi, separators. */
const DANGEROUS = /(?![\t\n])[\p{Cc}\p{Cf}\u2028\u2029]/u;

const hostileText = fc
  .array(
    fc.oneof(
      fc.constantFrom('\u001b[2J', '\u001b]52;c;aGk=\u0007', '\u009b31m', '\r', '\u0008', '\u007f'),
      fc.constantFrom('\u2028', '\u2029', '\u202e', '\u2066', '\u200b', '\ufeff', '\u00ad'),
      fc.integer({ min: 0, max: 0x9f }).map((code) => String.fromCharCode(code)),
      fc.string({ maxLength: 6 }),
    ),
    { minLength: 1, maxLength: 12 },
  )
  .map((parts) => parts.join(''));

const BASE = 'https://api.petstore.test/v1';

async function run(args: string[], transport: FakeTransport, key = 'sk_live_last_net_9999') {
  const io = fakeIO();
  const env = { HOME: freshHome(), PETSTORE_BASE_URL: BASE, PETSTORE_API_KEY: key };
  const code = await main(args, io, env, { transport });
  return { code, out: io.out(), err: io.err() };
}

describe('stderr carries nothing a terminal would act on', () => {
  it('an error message, its code and its request id, with --verbose and its stack trace', async () => {
    await fc.assert(
      fc.asyncProperty(hostileText, hostileText, async (message, code) => {
        const transport = new FakeTransport().on(
          'GET',
          '/v1/pets/1',
          json(500, { code, message, status: 500 }, { 'x-request-id': message }),
        );
        const result = await run(['-v', '--retries', '0', 'pets', 'get', '1'], transport);
        expect(result.code).toBe(6);
        // The stack trace is there (it is what --verbose adds; errors as JSON, a member of the
        // error's object), without what the service sent raw.
        const error = JSON.parse(result.err.trimEnd().split('\n').at(-1)!) as { stack: string };
        expect(error.stack).toMatch(/\n\s+at /);
        expect(result.err).not.toMatch(DANGEROUS);
      }),
      { numRuns: 60 },
    );
  });

  it('a pet name and a header, in every output format', async () => {
    await fc.assert(
      fc.asyncProperty(
        hostileText,
        fc.constantFrom('table', 'json', 'ndjson', 'csv', 'tsv'),
        async (name, format) => {
          const transport = new FakeTransport().on(
            'GET',
            '/v1/pets?limit=20',
            json(200, [{ id: 1, name, categoryId: 1 }], { deprecation: 'true', sunset: name }),
          );
          const result = await run(
            ['-v', 'pets', 'list', '--limit', '20', '-o', format],
            transport,
          );
          expect(result.code).toBe(0);
          expect(result.err).not.toMatch(DANGEROUS);
          // stdout is data: one row per line in a table and TSV, JSON escaped; only CSV keeps
          // line breaks (CR, LF) raw, inside quotes, as RFC 4180 has them.
          const unsafe = format === 'csv' ? /(?![\t\n\r])[\p{Cc}\p{Cf}\u2028\u2029]/u : DANGEROUS;
          expect(result.out).not.toMatch(unsafe);
          if (format === 'table' || format === 'tsv') {
            expect(result.out.trimEnd().split('\n')).toHaveLength(2);
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('no key the run holds is ever printed', () => {
  it('echoed by the service, in a message or a header, or in the base URL under --verbose', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({
          unit: fc.constantFrom(...Array.from('abcdefgXYZ0189_-')),
          minLength: 8,
          maxLength: 24,
        }),
        async (key) => {
          const io = fakeIO();
          const env = {
            HOME: freshHome(),
            // A base URL holding the key: only the last net stands between it and the log.
            PETSTORE_BASE_URL: `https://api.petstore.test/${encodeURIComponent(key)}/v1`,
            PETSTORE_API_KEY: key,
          };
          const routed = new FakeTransport().on(
            'GET',
            `/${encodeURIComponent(key)}/v1/pets?limit=20`,
            json(
              401,
              { code: 'unauthorized', message: `key ${key} refused`, status: 401 },
              {
                'x-echo': key,
              },
            ),
          );
          const code = await main(['-v', 'pets', 'list', '--limit', '20'], io, env, {
            transport: routed,
          });
          expect(code).toBe(3);
          const printed = (io.out() + io.err()).toLowerCase();
          expect(printed).not.toContain(key.toLowerCase());
          expect(printed).not.toContain(encodeURIComponent(key).toLowerCase());
        },
      ),
      { numRuns: 60 },
    );
  });

  it('a key too short to tell from data: a warning, and the data printed exactly', async () => {
    const io = fakeIO();
    const env = {
      HOME: freshHome(),
      PETSTORE_BASE_URL: 'https://api.petstore.test/v1',
      PETSTORE_API_KEY: 'pet',
    };
    const pets = [{ id: 1, name: 'petunia1', categoryId: 11 }];
    const routed = new FakeTransport().on('GET', '/v1/pets?limit=20', json(200, pets));
    const code = await main(['pets', 'list', '--limit', '20', '--json'], io, env, {
      transport: routed,
    });
    expect(code).toBe(0);
    expect(JSON.parse(io.out())).toEqual(pets);
    expect(io.err()).toContain(
      'the API key cannot be told from data (it has 3 characters, fewer than 8)',
    );
  });
});
