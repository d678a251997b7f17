import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  asksForHelp,
  commandOfArgv,
  fastPath,
  groupNamedAlone,
  helpRequest,
  verboseAsked,
} from '../../src/cli/argv.js';
import { commandPath } from '../../src/cli/usage.js';
import { buildProgram } from '../../src/cli/program.js';
import { main } from '../../src/main.js';
import { fakeIO } from '../helpers/fake-io.js';
import { freshHome } from '../helpers/run-cli.js';

const noVerb = () => Promise.resolve();

describe('the command line, read before commander', () => {
  it.each([
    [['--version'], { kind: 'version' }],
    [['version'], { kind: 'version' }],
    [['__keyring', 'get', 'x'], { kind: 'keyring helper', args: ['get', 'x'] }],
    [['__complete', 'profiles'], { kind: 'profile names' }],
    [['--help'], { kind: 'help', keys: [''] }],
    [['pets', 'list', '-h'], { kind: 'help', keys: ['pets list'] }],
    [['help', 'exit-codes'], { kind: 'help', keys: ['topic:exit-codes', 'exit-codes'] }],
    [['help', 'pets', 'add'], { kind: 'help', keys: ['pets add'] }],
    [['--json', 'pets', 'list', '--help'], undefined],
    [['pets', 'list'], undefined],
    [['--version', 'x'], undefined],
  ])('%j is answered before the program loads as %j', (argv, expected) => {
    expect(fastPath(argv)).toEqual(expected);
  });

  it('finds help as the first word, its options aside, or not at all', () => {
    expect(helpRequest(['--profile', 'help', 'pets', '-q'])).toEqual({
      before: ['--profile'],
      after: ['pets', '-q'],
      names: ['pets'],
    });
    expect(helpRequest(['pets', 'help'])).toBeUndefined();
  });

  it('reads -h and -v only before --, whatever follows', () => {
    const token = fc.constantFrom('-h', '--help', '-v', '--verbose', 'pets', 'list', '-q', 'x');
    fc.assert(
      fc.property(fc.array(token), fc.array(token), (before, after) => {
        const argv = [...before, '--', ...after];
        expect(asksForHelp(argv)).toBe(before.includes('-h') || before.includes('--help'));
        expect(verboseAsked(argv)).toBe(before.includes('-v') || before.includes('--verbose'));
      }),
    );
  });

  it('names the command a line runs, and a group named alone, skipping option values', async () => {
    const program = await buildProgram(fakeIO(), noVerb);
    const named = (argv: string[]) => commandPath(commandOfArgv(program, argv));
    expect(named(['--profile', 'pets', 'pets', 'add', '--nme', 'x'])).toBe('petstore pets add');
    expect(named(['-qo', 'json', 'pets', 'list'])).toBe('petstore pets list');
    expect(named(['--output=json', 'journal', 'nope'])).toBe('petstore journal');
    expect(groupNamedAlone(program, ['--json', 'pets'])?.name()).toBe('pets');
    expect(groupNamedAlone(program, ['pets', 'list'])).toBeUndefined();
    expect(groupNamedAlone(program, ['pets', 'nope'])).toBeUndefined();
    expect(groupNamedAlone(program, ['--', 'pets'])).toBeUndefined();
  });
});

describe('a group named alone, or a line commander must read', () => {
  it.each([
    [['--bogus']],
    [['pets', '--bogus']],
    [['--profile']],
    [['-o']],
    [['-q', '--version']],
    [['--', 'pets']],
  ])('%j is not a group alone: commander reads it', async (argv) => {
    const program = await buildProgram(fakeIO(), noVerb);
    expect(groupNamedAlone(program, argv)).toBeUndefined();
  });

  it.each([
    [['pets']],
    [['--json', 'pets']],
    [['-qo', 'json', 'pets']],
    [['--output=json', 'pets']],
  ])('%j is the pets group alone', async (argv) => {
    const program = await buildProgram(fakeIO(), noVerb);
    expect(groupNamedAlone(program, argv)?.name()).toBe('pets');
  });

  it.each([
    [['--bogus'], 2],
    [['--timeout', 'abc', 'pets'], 2],
    [['pets', '--timeout', 'abc'], 2],
    [['-o', 'yaml', 'pets'], 2],
    [['--timeout', '5', 'pets'], 0],
  ])('%j exits %i', async (argv, code) => {
    const io = fakeIO();
    expect(await main(argv, io, { HOME: freshHome() })).toBe(code);
    if (code === 0) expect(io.out()).toContain('Usage: petstore pets');
    else expect(io.out()).toBe('');
  });

  it('prints the version whatever flags come with --version', async () => {
    const io = fakeIO();
    expect(await main(['-q', '--version'], io, { HOME: freshHome() })).toBe(0);
    expect(io.out()).toMatch(/^\d+\.\d+\.\d+/);
  });
});

describe('an option given where another option’s value belongs', () => {
  it.each([
    [['pets', 'add', '--name', '--version', '--category-id', '1'], '--name', '--version'],
    [['pets', 'add', '--name', '--help'], '--name', '--help'],
    [['pets', 'add', '--category-id', '1', '--name', '-h'], '--name', '-h'],
    [['pets', 'add', '--name', '--json', '--category-id', '1'], '--name', '--json'],
    [['pets', 'add', '--name', '-qo', 'json'], '--name', '-qo'],
    [['--profile', '--version'], '--profile', '--version'],
    [['-qo', '--version', 'pets', 'list'], '-o', '--version'],
    [['--base-url', '--json', 'pets', 'list'], '--base-url', '--json'],
    [['pets', 'add', '--name', '--', '--category-id', '1'], '--name', '--'],
  ])('%j is a usage error that says how to give such a value', async (argv, flag, value) => {
    const io = fakeIO();
    expect(await main(argv, io, { HOME: freshHome() })).toBe(2);
    expect(io.out()).toBe('');
    expect(io.err()).toContain(`option ${flag} needs a value, and got the option ${value} instead`);
    expect(io.err()).toContain('goes with an equals sign');
  });

  it.each([
    [['pets', 'add', '--name=--version', '--category-id', '1', '--dry-run'], '"name":"--version"'],
    [['pets', 'add', '--name', '-x', '--category-id', '1', '--dry-run'], '"name":"-x"'],
    [['pets', 'add', '--name', '-', '--category-id', '1', '--dry-run'], '"name":"-"'],
  ])('%j takes a value that starts with a dash and names no option', async (argv, body) => {
    const io = fakeIO();
    expect(await main([...argv, '-o', 'json'], io, { HOME: freshHome() })).toBe(0);
    expect(io.out()).toContain(body);
  });

  it('leaves a number below zero to the option’s own check', async () => {
    const io = fakeIO();
    expect(await main(['pets', 'list', '--limit', '-5'], io, { HOME: freshHome() })).toBe(2);
    expect(io.err()).toContain('--limit must be a whole number from 1 to 100');
  });
});
