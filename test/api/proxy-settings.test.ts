import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bypassesProxy,
  proxyFor,
  proxyPasswords,
  proxySettingsFromEnv,
} from '../../src/api/proxy-settings.js';
import { UsageError } from '../../src/core/errors.js';
import { maskCredentials } from '../../src/core/redaction/index.js';
import { main } from '../../src/main.js';
import { fakeIO } from '../helpers/fake-io.js';
import { FakeTransport } from '../helpers/fake-transport.js';
import { freshHome } from '../helpers/run-cli.js';

const NAMES = ['HTTP_PROXY', 'http_proxy', 'HTTPS_PROXY', 'https_proxy'] as const;

/** Proxy settings as people get them wrong: no scheme, bad ports, hosts, encodings, schemes. */
const malformed = fc.oneof(
  fc
    .tuple(fc.domain(), fc.integer({ min: 1, max: 65535 }))
    .map(([host, port]) => `${host}:${port}`),
  fc
    .tuple(fc.domain(), fc.integer({ min: 65536, max: 10 ** 7 }))
    .map(([h, p]) => `http://${h}:${p}`),
  fc.constantFrom('http://', 'http://:8080', 'http://u:p@[::1', 'http://[::1:80', 'http:// host'),
  fc
    .tuple(fc.constantFrom('%zz', '%', '%e0%a4%a', 'a%2'), fc.domain())
    .map(([bad, host]) => `http://user:${bad}@${host}:3128`),
  fc
    .tuple(fc.constantFrom('ftp', 'file', 'ws', 'gopher', 'mailto'), fc.domain())
    .map(([scheme, host]) => `${scheme}://${host}:21`),
  // More than a host and a port: a path, a query, a fragment, a backslash.
  fc
    .tuple(fc.domain(), fc.constantFrom('/p', '/?q', '?q', '#f', '/#', '\\x', '/a/b', '/%2F'))
    .map(([host, more]) => `http://${host}:8080${more}`),
);

describe('proxy variables', () => {
  it('a malformed one is exit 2 naming the variable, before anything is sent, its password masked', async () => {
    await fc.assert(
      fc.asyncProperty(malformed, fc.constantFrom(...NAMES), async (value, name) => {
        const password = 'pw-Sekr3t-9';
        const withPassword = value.replace('://', `://someone:${password}@`);
        const transport = new FakeTransport();
        const io = fakeIO();
        const env = {
          HOME: freshHome(),
          PETSTORE_BASE_URL: 'https://api.petstore.test/v1',
          PETSTORE_API_KEY: 'sk_test_proxy_prop',
          [name]: withPassword,
        };
        const code = await main(['pets', 'list'], io, env, { transport });
        expect(code).toBe(2);
        const error = JSON.parse(io.err()) as { message: string };
        expect(error.message).toContain(`${name} is not a usable proxy`);
        expect(io.err()).not.toContain(password);
        expect(transport.requests).toHaveLength(0);
      }),
      { numRuns: 80 },
    );
  });

  it('its fix reads as written, whatever the credentials share with it (under 8 in a row)', async () => {
    // 8 characters of a secret in a row are masked wherever they are, the fix's words too.
    for (const credentials of ['user:pass', 'user:password', 'name:s3cr3t1']) {
      const io = fakeIO();
      const env = {
        HOME: freshHome(),
        PETSTORE_BASE_URL: 'https://api.petstore.test/v1',
        PETSTORE_API_KEY: 'sk_test_proxy_hint',
        HTTPS_PROXY: `http://${credentials}@127.0.0.1:99999`,
      };
      expect(await main(['pets', 'list'], io, env, { transport: new FakeTransport() })).toBe(2);
      const { hint } = JSON.parse(io.err()) as { hint: string };
      expect(hint).toBe(
        'Set HTTPS_PROXY to http://[NAME:SECRET@]host:port (percent-encode the secret), or unset it.',
      );
    }
  });

  it('a well-formed one is used as it is given', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('http', 'https', 'socks5'),
        fc.domain(),
        fc.integer({ min: 1, max: 65535 }),
        (scheme, host, port) => {
          const url = `${scheme}://${host}:${port}`;
          const settings = proxySettingsFromEnv({ HTTPS_PROXY: url });
          expect(new URL(settings.https!).host).toBe(new URL(url).host);
          expect(settings.http).toBeUndefined();
        },
      ),
    );
  });

  it('reads lower case first, ignores blank values, and keeps NO_PROXY only with a proxy', () => {
    expect(
      proxySettingsFromEnv({ https_proxy: 'http://a.test:1', HTTPS_PROXY: 'http://b.test:2' }),
    ).toMatchObject({ https: 'http://a.test:1/' });
    expect(proxySettingsFromEnv({ HTTP_PROXY: '  ', NO_PROXY: 'x' })).toEqual({});
    expect(() => proxySettingsFromEnv({ HTTP_PROXY: 'proxy:3128' })).toThrow(UsageError);
  });

  it('masks the password in what it shows, and gives it to the redactor', () => {
    expect(maskCredentials('http://bob:p@ss@proxy.test:3128')).toBe('http://****@proxy.test:3128');
    expect(proxyPasswords({ http: 'http://bob:s3cr%40t@proxy.test:3128/' })).toEqual([
      's3cr%40t',
      's3cr@t',
      // What undici sends as Proxy-Authorization: Basic …, which a proxy may echo back.
      Buffer.from('bob:s3cr@t').toString('base64'),
    ]);
  });

  it('NO_PROXY: a host and the hosts under it, a port, or everything, as undici decides', () => {
    const through = (noProxy: string, url: string) =>
      !bypassesProxy({ http: 'http://p.test:3128/', noProxy }, new URL(url));
    expect(through('', 'https://api.test/v1')).toBe(true);
    expect(through('*', 'https://api.test/v1')).toBe(false);
    expect(through('api.test', 'https://API.test/v1')).toBe(false);
    expect(through('api.test', 'https://x.api.test/v1')).toBe(false);
    expect(through('api.test', 'https://xapi.test/v1')).toBe(true);
    expect(through('.api.test', 'https://x.api.test/v1')).toBe(false);
    expect(through('*.api.test', 'https://x.api.test/v1')).toBe(false);
    expect(through('*.api.test', 'https://api.test/v1')).toBe(true);
    expect(through('other.test, api.test:8443', 'https://api.test:8443/v1')).toBe(false);
    expect(through('api.test:8443', 'https://api.test/v1')).toBe(true);
    expect(through('api.test:443', 'https://api.test/v1')).toBe(false);
    // What an outside probe set: a parent domain, a trailing dot, blanks and capitals.
    for (const entry of ['test', '.animals.test', 'animals.test.', ' ANIMALS.TEST. ']) {
      expect(through(entry, 'http://animals.test/v1'), entry).toBe(false);
    }
    expect(through('[::1]:8080', 'http://[::1]:8080/v1')).toBe(false);
  });

  it('names the variable that set the proxy a request goes through', () => {
    const settings = proxySettingsFromEnv({ http_proxy: 'http://p.test:1' });
    expect(proxyFor(settings, new URL('https://api.test/'))).toEqual({
      url: 'http://p.test:1/',
      variable: 'http_proxy',
    });
    const both = proxySettingsFromEnv({
      HTTP_PROXY: 'http://a.test:1',
      HTTPS_PROXY: 'http://b.test:2',
    });
    expect(proxyFor(both, new URL('https://api.test/'))?.variable).toBe('HTTPS_PROXY');
    expect(proxyFor(both, new URL('http://api.test/'))?.variable).toBe('HTTP_PROXY');
  });

  it('never shows the credentials, whatever they hold, even in a value that is no URL', async () => {
    const secret = fc.string({
      unit: fc.constantFrom(...Array.from('abcXYZ019/#?:%@!~')),
      minLength: 8,
      maxLength: 20,
    });
    await fc.assert(
      fc.asyncProperty(
        secret,
        fc.constantFrom(...NAMES),
        fc.boolean(),
        async (password, name, tokenOnly) => {
          fc.pre(/[a-z]/i.test(password));
          const userinfo = tokenOnly ? password : `bob:${password}`;
          const value = `http://${userinfo}@proxy.corp.test:3128/?again=${password}`;
          const io = fakeIO();
          await main(
            ['pets', 'list'],
            io,
            {
              HOME: freshHome(),
              PETSTORE_BASE_URL: 'https://api.petstore.test/v1',
              PETSTORE_API_KEY: 'sk_test_proxy_prop',
              [name]: value,
            },
            { transport: new FakeTransport() },
          );
          expect(io.err() + io.out()).not.toContain(password);
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('credentials in a URL or proxy value of any shape', () => {
  /** Where the credentials start, as people misspell it: no scheme, half a scheme, encoded. */
  const prefix = fc.constantFrom(
    '',
    'http//',
    'http:/',
    '//',
    'http:',
    'HTTPS//',
    'socks5h:/',
    'http:///',
    'http%3A%2F%2F',
    'https://',
  );
  const password = fc
    .string({
      unit: fc.constantFrom(...Array.from('abcXYZ0189-_.~!$')),
      minLength: 8,
      maxLength: 16,
    })
    .filter((text) => /[a-z]/i.test(text));
  const value = fc
    .record({
      prefix,
      password,
      tokenOnly: fc.boolean(),
      at: fc.constantFrom('@', '%40', '\uff20', '\ufe6b'),
      rest: fc.constantFrom('127.0.0.9:8080', 'proxy.corp.test', 'h:3128/', 'api.test/v1'),
    })
    .map(({ prefix, password, tokenOnly, at, rest }) => ({
      password,
      text: `${prefix}${tokenOnly ? password : `user:${password}`}${at}${rest}`,
    }));
  const commands = [
    ['pets', 'list'],
    ['-v', 'pets', 'list'],
    ['doctor'],
    ['api', '-i', '/pets'],
    ['pets', 'add', '--name', 'Rex', '--category-id', '1'],
    ['-o', 'json', 'pets', 'get', '1'],
  ];
  const places = [
    'HTTPS_PROXY',
    'http_proxy',
    'ALL_PROXY',
    'PETSTORE_BASE_URL',
    '--base-url',
    'api PATH',
  ];

  it('masks the password in what it shows', () => {
    fc.assert(
      fc.property(value, ({ text, password }) => {
        expect(maskCredentials(text)).not.toContain(password);
        expect(maskCredentials(text)).toContain('****');
      }),
    );
  });

  it('masks the credentials of a word commander refuses as an option (one fast-check found)', async () => {
    const io = fakeIO();
    const env = { HOME: freshHome(), PETSTORE_API_KEY: 'sk_test_proxy_any_shape' };
    const code = await main(['api', '-i', '-aaaaaaaa@127.0.0.9:8080', '--dry-run'], io, env, {
      transport: new FakeTransport(),
    });
    expect(code).toBe(2);
    expect(io.err()).toContain("unknown option '****@127.0.0.9:8080'");
  });

  it('masks a token alone before a host without a port, taken for an option', async () => {
    // Found by the property below: `-aaaaaaaa@proxy.corp.test` was printed whole.
    const io = fakeIO();
    const env = { HOME: freshHome(), PETSTORE_API_KEY: 'sk_test_proxy_any_shape' };
    const code = await main(['api', '-i', '-tok3nXYZ@proxy.corp.test', '--dry-run'], io, env, {
      transport: new FakeTransport(),
    });
    expect(code).toBe(2);
    expect(io.err()).toContain("unknown option '****@proxy.corp.test'");
  });

  it('never prints the password, through any command, from any variable or flag', async () => {
    await fc.assert(
      fc.asyncProperty(
        value,
        fc.constantFrom(...commands),
        fc.constantFrom(...places),
        fc.boolean(),
        async ({ text, password }, command, place, tty) => {
          const io = fakeIO({ tty });
          const env: Record<string, string> = {
            HOME: freshHome(),
            PETSTORE_BASE_URL: 'https://api.petstore.test/v1',
            PETSTORE_API_KEY: 'sk_test_proxy_any_shape',
          };
          const args = [...command];
          if (place === '--base-url') args.unshift('--base-url', text);
          else if (place === 'api PATH')
            args.splice(0, args.length, 'api', '-i', text, '--dry-run');
          else env[place] = text;
          await main(args, io, env, { transport: new FakeTransport() });
          expect(io.err() + io.out()).not.toContain(password);
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('credentials that are no user:password@', () => {
  it('a token in a proxy query, or a password with no host after it, is never shown', async () => {
    for (const value of [
      'http://proxy.test:3128/?access_token=Tok3nSecretValue',
      'http://alice:Pw9secretWord',
      'http://alice:Pw9secretWord/',
    ]) {
      const io = fakeIO();
      const env = {
        HOME: freshHome(),
        PETSTORE_BASE_URL: 'https://api.petstore.test/v1',
        PETSTORE_API_KEY: 'sk_test_proxy_query',
        HTTPS_PROXY: value,
      };
      await main(['pets', 'list'], io, env, { transport: new FakeTransport() });
      expect(io.err() + io.out(), value).not.toMatch(/Tok3n|secretWord|Pw9secret/);
    }
  });

  it('credentials a config file holds in a URL show no character of the password', async () => {
    const home = freshHome();
    const config = join(home, 'cfg');
    mkdirSync(config, { mode: 0o700 });
    const file = join(config, 'config.json');
    const data = { profiles: { qa: { baseUrl: 'http://bob:Ab3dEf9h@127.0.0.1:9/v1' } } };
    writeFileSync(file, JSON.stringify(data), { mode: 0o600 });
    const io = fakeIO();
    await main(['profile', 'show', 'qa'], io, { HOME: home, PETSTORE_CONFIG_DIR: config });
    expect(io.out()).toContain('http://****@127.0.0.1:9/v1');
    expect(io.out() + io.err()).not.toMatch(/Ab3d|3dEf|Ef9h|f9h@/);
  });
});
