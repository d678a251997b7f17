import { Command, type CommandUnknownOpts } from '@commander-js/extra-typings';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';
import { main } from '../../src/main.js';
import { fakeIO } from '../helpers/fake-io.js';
import { freshHome } from '../helpers/run-cli.js';

const env = { HOME: freshHome() };
const noVerb = () => Promise.resolve();

/** A command's help and its subcommands', as commander renders them: its whole definition. */
function definition(command: CommandUnknownOpts): string {
  return [command.helpInformation(), ...command.commands.map(definition)].join('\n');
}

describe('the program built for one command line', () => {
  it('has the command the line runs, defined as in the whole program, and no other', async () => {
    const whole = await buildProgram(fakeIO(), noVerb);
    const names = whole.commands.map((command) => command.name());
    expect(names).toContain('pets');
    for (const name of names.filter((name) => name !== 'completion' && name !== 'version')) {
      const built = await buildProgram(fakeIO(), noVerb, ['--json', name, '--help']);
      expect(built.commands.map((command) => command.name())).toEqual([name]);
      expect(definition(built.commands[0]!)).toBe(
        definition(whole.commands.find((command) => command.name() === name)!),
      );
    }
  });

  it('has of a group only the verb the line runs, defined as in the whole program', async () => {
    const whole = await buildProgram(fakeIO(), noVerb);
    const groups = whole.commands.filter((command) => command.commands.length > 1);
    expect(groups.map((group) => group.name())).toContain('pets');
    for (const group of groups) {
      for (const verb of group.commands) {
        const argv = [group.name(), '-q', verb.name(), '--help'];
        const built = await buildProgram(fakeIO(), noVerb, argv);
        const [only] = built.commands;
        expect(
          only!.commands.map((command) => command.name()),
          argv.join(' '),
        ).toEqual([verb.name()]);
        expect(definition(only!.commands[0]!)).toBe(definition(verb));
      }
    }
  });

  it('is whole when the command reads the others, or the line runs none', async () => {
    const whole = definition(await buildProgram(fakeIO(), noVerb));
    for (const argv of [
      ['completion', 'bash'],
      [],
      ['--help', 'pets'],
      ['help', 'pets'],
      ['--bogus', 'pets', 'list'],
      ['pest', 'list'],
      ['--profile'],
      ['version'],
      ['--profile', 'help', 'pets', 'list'],
    ]) {
      expect(definition(await buildProgram(fakeIO(), noVerb, argv)), argv.join(' ')).toBe(whole);
    }
  });
});

/** Everything a command line leads to: exit code, stdout, stderr and the verb it would run. */
async function outcome(argv: string[], wholeProgram: boolean) {
  const io = fakeIO();
  const received: { verb: string; options: unknown }[] = [];
  const code = await main(argv, io, env, {
    wholeProgram,
    runF: (verb, options) => {
      // A Command (completion's program) is compared by what it defines: two builds of one
      // program hold closures of their own, never equal as objects.
      const comparable = Object.fromEntries(
        Object.entries(options as Record<string, unknown>).map(([name, value]) => [
          name,
          value instanceof Command ? definition(value as CommandUnknownOpts) : value,
        ]),
      );
      received.push({ verb, options: comparable });
    },
  });
  return { code, out: io.out(), err: io.err(), received };
}

/** Words a command line is made of: commands, verbs, global options and their values, noise. */
const WORDS = [
  ...['pets', 'message', 'profile', 'auth', 'journal', 'sandbox', 'smoke', 'api', 'doctor'],
  ...['mcp', 'completion', 'version', 'help', 'pest', 'list', 'ls', 'add', 'get', 'send'],
  ...['use', 'show', 'set', 'login', 'status', 'serve', 'reset', 'prune', 'bash', 'environment'],
  ...['logout', 'remove', 'delete', 'history', '--since', '--via', 'cli'],
  ...['--profile', '--base-url', '--base-url=http://127.0.0.1:9/v1', '-o', '--output=csv'],
  ...['--json', '--no-color', '-v', '-q', '-qv', '-qo', '-oq', '-vo', '--timeout', '--retries'],
  ...['--query', '--error-format', '--progress', '--no-input', '--allow-insecure-http'],
  ...['-h', '--help', '--version', '--', '-', '-1', '-2.5', '--bogus', '-z', '-qz', '--json=1'],
  ...['json', 'table', 'staging', 'sandbox', '5', '0', 'x', 'never', ''],
];

describe('building only the command that runs', () => {
  it('changes nothing a command line leads to', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom(...WORDS), { maxLength: 6 }), async (argv) => {
        expect(await outcome(argv, false)).toEqual(await outcome(argv, true));
      }),
      // The one line whose verb receives the program itself: once failed on a random seed.
      { numRuns: 300, examples: [[['completion', 'bash']], [['history']]] },
    );
  });

  it('changes nothing where option values look like commands and verbs', async () => {
    const noun = fc.constantFrom('pets', 'profile', 'auth', 'journal', 'sandbox', 'message');
    const word = fc.constantFrom('list', 'add', 'get', 'show', 'use', 'login', 'pets', 'help');
    // Options with a value, the value a word a command line might take for a verb.
    const options = fc.array(
      fc.oneof(
        fc.tuple(fc.constantFrom('--profile', '-o', '--query', '--timeout', '-qo'), word),
        fc.tuple(fc.constantFrom('--json', '-q', '--bogus', '--', '-1'), fc.constant(undefined)),
      ),
      { maxLength: 2 },
    );
    const flat = (pairs: [string, string | undefined][]) =>
      pairs.flatMap(([flag, value]) => (value === undefined ? [flag] : [flag, value]));
    await fc.assert(
      fc.asyncProperty(
        fc.tuple(options, noun, options, word, options),
        async ([before, group, between, verb, after]) => {
          const argv = [...flat(before), group, ...flat(between), verb, ...flat(after)];
          expect(await outcome(argv, false)).toEqual(await outcome(argv, true));
        },
      ),
      { numRuns: 300 },
    );
  });
});
