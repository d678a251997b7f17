import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/main.js';
import { ENV_KEY, STORED_KEY, useConfigHome } from '../helpers/config-home.js';
import { fakeIO } from '../helpers/fake-io.js';
import { freshHome } from '../helpers/run-cli.js';

const env = { HOME: freshHome() };

describe('usage errors take the requested output form', () => {
  it.each([
    [
      ['--json', 'pets', 'add', '--nme', 'x'],
      "unknown option '--nme'; did you mean --name?",
      'pets add',
    ],
    [['pets', 'add', '--name'], "option '--name <name>' argument missing", 'pets add'],
    [
      ['pets', 'get', '1', '2'],
      "too many arguments for 'get'. Expected 1 argument but got 2: 1, 2.",
      'pets get',
    ],
    [['-o', 'json', 'message', 'send', 'a', '--bogus'], "unknown option '--bogus'", 'message send'],
    [['--profile', 'qa', 'pets', 'lst'], "unknown command 'lst'; did you mean list?", 'pets'],
    [['bogus'], "unknown command 'bogus'", ''],
  ])(
    '%j: one JSON object on stderr, and a hint for that command',
    async (args, message, command) => {
      // Piped (not a terminal): JSON is the default output, so errors are JSON too.
      const io = fakeIO();
      expect(await main(args, io, env)).toBe(2);
      expect(io.out()).toBe('');
      const lines = io.err().trimEnd().split('\n');
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0]!)).toEqual({
        code: 'usage',
        message,
        status: 0,
        hint: `Run: petstore${command ? ` ${command}` : ''} --help`,
      });
    },
  );

  it('--output table on a pipe keeps the human form', async () => {
    const io = fakeIO();
    expect(await main(['-o', 'table', 'pets', 'get'], io, env)).toBe(2);
    expect(io.err()).toBe(
      "petstore: missing required argument 'PET_ID'\nhint: Run: petstore pets get --help\n",
    );
  });
});

describe('petstore help COMMAND...', () => {
  it('shows the help of a nested command, on stdout', async () => {
    const io = fakeIO();
    expect(await main(['help', 'pets', 'list'], io, env)).toBe(0);
    expect(io.out()).toMatch(/^Usage: petstore pets list\|ls \[options\]/);
    expect(io.out()).toContain('--status');
  });

  it('refuses help for a command that does not exist', async () => {
    const io = fakeIO({ tty: true });
    expect(await main(['help', 'pets', 'lst'], io, env)).toBe(2);
    expect(io.err()).toBe(
      "petstore: no help for 'pets lst': unknown command 'lst'\nhint: Run: petstore pets --help\n",
    );
    expect(io.out()).toBe('');
  });
});

describe('a hint names the command it is about', () => {
  it.each([
    [['pets', 'import', '-'], 'petstore pets import -'],
    [['message', 'send', '--file', '-'], 'petstore message send --file -'],
    [['api', '/pets', '--input', '-'], 'petstore api /pets --input -'],
    [['api', '/pets', '-F', 'name=@-'], 'petstore api /pets -F name=@-'],
  ])('%j reading a terminal as its input', async (args, command) => {
    const io = fakeIO({ tty: true });
    expect(await main(['--no-input', ...args], io, { HOME: freshHome() })).toBe(2);
    const hint = /^hint: (.*)$/m.exec(io.err())?.[1] ?? '';
    expect(hint).toContain(command);
    for (const other of ['pets add', 'message send', 'api /pets']) {
      if (!command.includes(other)) expect(hint).not.toContain(`petstore ${other}`);
    }
  });
});

describe('a refused word that holds credentials', () => {
  it('shows none of them, whatever "@" the password holds (one an outside probe found)', async () => {
    // An upper-case letter and a digit first: never a word of the message itself.
    const piece = fc.stringMatching(/^[A-Z][0-9][A-Za-z0-9]{2,10}$/);
    await fc.assert(
      fc.asyncProperty(
        piece,
        fc.array(piece, { minLength: 1, maxLength: 3 }),
        fc.constantFrom(['pets'], ['profile', 'show', 'x'], ['bogus'], ['pets', 'list']),
        async (user, pieces, words) => {
          const url = `https://${user}:${pieces.join('@')}@example.com/v1`;
          const io = fakeIO();
          expect(await main([...words, url], io, env)).toBe(2);
          for (const secret of [user, ...pieces]) expect(io.err()).not.toContain(secret);
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('a value with credentials given where none is wanted', () => {
  it('is quoted by the error with its password masked (ones outside probes found)', async () => {
    // At least 8 characters: shorter ones cannot be told from the message's own words.
    const password = fc.stringMatching(/^[A-Z][0-9][A-Za-z0-9]{6,12}$/);
    const lines: ((url: string) => string[])[] = [
      (url) => ['-o', url, 'pets', 'list'],
      (url) => [`--output=${url}`, 'pets', 'list'],
      (url) => [`-o${url}`, 'pets', 'list'],
      (url) => [`-qo${url}`, 'pets', 'list'],
      (url) => ['--error-format', url, 'pets', 'list'],
      (url) => [`--timeout=${url}`, 'pets', 'list'],
      (url) => ['--profile', url, 'pets', 'list'],
      (url) => [`--profile=${url}`, 'pets', 'list'],
      (url) => ['pets', 'list', `--limit=${url}`],
      (url) => ['pets', 'list', '--status', url],
      (url) => ['pets', 'get', url],
      (url) => ['profile', 'use', url],
      (url) => ['completion', url],
      (url) => ['pets', 'lisst', url],
      // Without a scheme, as an unknown option: credentials so only where an "@" ends them.
      (url) => ['api', /@|%40/.test(url) ? url.replace(/^https?:\/\//, '-') : url],
    ];
    const url = fc.oneof(
      password.map((secret) => `http://bob:${secret}@h.example/v1`),
      password.map((secret) => `https://bob:${secret}%40h.example`),
      password.map((secret) => `http://bob:${secret}`),
    );
    await fc.assert(
      fc.asyncProperty(url, fc.constantFrom(...lines), async (value, line) => {
        const secret = /bob:([A-Z][0-9][A-Za-z0-9]*)/.exec(value)![1]!;
        const io = fakeIO();
        await main(line(value), io, env);
        expect(io.err() + io.out()).not.toContain(secret);
        // Where the URL is quoted it stays readable: scheme and host, the credentials as one.
        if (io.err().includes('://') && io.err().includes('@h.example')) {
          expect(io.err()).toMatch(/https?:\/\/\*\*\*\*@h\.example/);
        }
      }),
      { numRuns: 100 },
    );
  });

  it('leaves words that are no URL as they are (an outside probe saw them masked)', async () => {
    for (const word of ['Dr:Fluffington', 'deploy:release-2024', 'someone@example.com']) {
      const io = fakeIO();
      expect(await main(['pets', 'get', word], io, env)).toBe(2);
      expect(io.err()).toContain(word);
    }
    // Nor are a short password's letters masked in the message's own words.
    for (const word of ['a:b@c', 'https://u:p@h.example']) {
      const io = fakeIO();
      await main(['pets', 'lisst', word], io, env);
      expect(io.err()).toContain("unknown command 'lisst'");
    }
  });
});

describe('a key typed where a value goes', () => {
  const cli = useConfigHome();
  // Places a usage error quotes the word typed (an outside probe saw the key in each).
  const lines: ((key: string) => string[])[] = [
    (key) => ['auth', 'login', key],
    (key) => ['pets', 'get', key],
    (key) => ['pets', 'list', '--status', key],
    (key) => ['--timeout', key, 'pets', 'list'],
    (key) => ['-o', key, 'pets', 'list'],
    (key) => ['message', 'send', key, 'extra'],
    (key) => [key],
    (key) => ['pets', key],
  ];

  it('is masked when it is the stored key, or the environment gives it', async () => {
    await cli.login('staging');
    const used = await cli.run(['profile', 'use', 'staging']);
    expect(used.code, used.err).toBe(0);
    for (const line of lines) {
      for (const form of [[], ['--error-format', 'json']]) {
        const stored = await cli.run([...form, ...line(STORED_KEY)]);
        expect(stored.code, line(STORED_KEY).join(' ')).toBe(2);
        expect(stored.err).not.toContain(STORED_KEY);
        expect(stored.err).toContain(STORED_KEY.slice(-4));
        const env = await cli.run([...form, ...line(ENV_KEY)], {
          env: { PETSTORE_API_KEY: ENV_KEY },
        });
        expect(env.err).not.toContain(ENV_KEY);
      }
    }
  });
});
