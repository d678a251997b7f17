import { describe, expect, it } from 'vitest';
import { main } from '../../src/main.js';
import { fakeIO } from '../helpers/fake-io.js';
import { freshHome } from '../helpers/run-cli.js';

/** What a person meets in the first hour at a terminal. */

async function run(args: string[], env: Record<string, string> = {}) {
  const io = fakeIO({ tty: true });
  const code = await main(args, io, { HOME: freshHome(), ...env });
  return { code, out: io.out(), err: io.err() };
}

describe('the first hour', () => {
  it.each([
    [[]],
    [['pets']],
    [['profile']],
    [['auth']],
    [['sandbox']],
    [['--json', 'pets']],
    [['pets', '-q']],
  ])('%j alone prints its help on stdout and exits 0', async (args) => {
    const result = await run(args);
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/^Usage: petstore/);
    expect(result.err).toBe('');
  });

  it('petstore version prints the version, as --version does', async () => {
    const version = await run(['version']);
    expect(version).toMatchObject({ code: 0, err: '' });
    expect(version.out).toBe((await run(['--version'])).out);
  });

  it('ls is list, for pets and profiles', async () => {
    for (const noun of ['pets', 'profile']) {
      const ls = await run([noun, 'ls', '-o', 'json'], { PETSTORE_PROFILE: 'sandbox' });
      const list = await run([noun, 'list', '-o', 'json'], { PETSTORE_PROFILE: 'sandbox' });
      expect(ls.code).toBe(0);
      expect(ls.out).toBe(list.out);
    }
  });

  it.each([
    [['--profile', 'stagign', 'pets', 'list'], {}],
    [['pets', 'list'], { PETSTORE_PROFILE: 'Staging' }],
    [['profile', 'show', 'stagin'], {}],
    [['profile', 'use', 'satging'], {}],
    [['auth', 'status', '--profile', 'staggin'], {}],
    [['auth', 'login', '--profile', 'stageing', '--no-input'], {}],
    [['doctor', '--profile', 'sataging'], {}],
  ])('a mistyped profile name, %j, gets a "did you mean"', async (args, env) => {
    const result = await run(args, env);
    expect(result.code).toBe(2);
    expect(result.err).toContain('(did you mean staging?)');
  });

  it('a name close to none gets no guess', async () => {
    const result = await run(['--profile', 'qa-west-2', 'pets', 'list']);
    expect(result.err).toContain('no profile named "qa-west-2"');
    expect(result.err).not.toContain('did you mean');
  });

  it.each(['delete', 'remove', 'rm', 'update', 'edit'])(
    'pets %s says the interface has no such operation, and what it has',
    async (verb) => {
      const result = await run(['pets', verb, '12']);
      expect(result.code).toBe(2);
      expect(result.err).toContain(
        `the Animal Store interface has no operation to ${verb} a pet: pets offers list, add, import and get`,
      );
      expect(result.err).toContain('hint: Run: petstore pets --help');
    },
  );
});
