import type { CommandUnknownOpts as Command, CommanderError } from '@commander-js/extra-typings';
import { UsageError } from '../core/errors.js';
import { HELP_TOPIC_NAMES, topicText } from '../help/topics.js';

/**
 * Where `help` stands as the command line's first word, global flags around it, or -1. Read
 * before commander reads the line: `help` is the first word even where commander would take it
 * for a flag's value (`--profile help`).
 */
export function helpWordAt(argv: readonly string[]): number {
  const at = argv.findIndex((arg) => !arg.startsWith('-'));
  return at !== -1 && argv[at] === 'help' ? at : -1;
}

/** The text of `petstore help TOPIC` (environment, exit-codes, ...) when that is the request. */
export function helpTopicRequest(argv: readonly string[]): string | undefined {
  const at = helpWordAt(argv);
  if (at === -1) return undefined;
  const names = argv.slice(at + 1).filter((arg) => !arg.startsWith('-'));
  return names.length === 1 ? topicText(names[0]!) : undefined;
}

/**
 * `petstore help pets list` means `petstore pets list --help`, however deep the command; help
 * for a command that does not exist is a usage error, not the top-level help.
 */
export function expandHelpCommand(program: Command, argv: readonly string[]): string[] {
  const at = helpWordAt(argv);
  if (at === -1 || at === argv.length - 1) return [...argv];
  const names = argv.slice(at + 1).filter((arg) => !arg.startsWith('-'));
  let command = program;
  for (const name of names) {
    const sub = findSubcommand(command, name);
    if (!sub) {
      const topics = command === program ? ` (help topics: ${HELP_TOPIC_NAMES.join(', ')})` : '';
      throw new UsageError(`no help for '${names.join(' ')}': unknown command '${name}'`, {
        hint: `Run: ${commandPath(command)} --help${topics}`,
      });
    }
    command = sub;
  }
  return [...argv.slice(0, at), ...argv.slice(at + 1), '--help'];
}

function findSubcommand(command: Command, name: string): Command | undefined {
  return command.commands.find((c) => c.name() === name || c.aliases().includes(name));
}

/** The option a flag names, in the command or the groups above it. */
function optionOf(command: Command, flag: string) {
  for (let current: Command | null = command; current; current = current.parent) {
    const option = current.options.find((o) => o.long === flag || o.short === flag);
    if (option) return option;
  }
  return undefined;
}

/**
 * True when the option, written as `token` without `=value`, takes the next token as value.
 * Short flags run together (`-qo json`): the first that takes a value takes the rest of the
 * token, or, when it is the last, the next token.
 */
function takesValue(command: Command, token: string): boolean {
  if (!token.startsWith('--') && token.length > 2) {
    const letters = token.slice(1);
    for (let at = 0; at < letters.length; at++) {
      const option = optionOf(command, `-${letters[at]}`);
      if (option && (option.required || option.optional)) return at === letters.length - 1;
    }
    return false;
  }
  const option = optionOf(command, token);
  return option !== undefined && (option.required || option.optional);
}

/** True when the command line asks for help (`-h`, `--help`) before any `--`. */
export function asksForHelp(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).some(
    (token) => token === '-h' || token === '--help',
  );
}

/** The command the user was running: `pets add` in `petstore --json pets add --nme x`. */
export function commandOfArgv(program: Command, argv: readonly string[]): Command {
  let command = program;
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    if (token === '--') break;
    if (token.startsWith('-')) {
      if (!token.includes('=') && takesValue(command, token)) i++;
      continue;
    }
    const sub = findSubcommand(command, token);
    if (!sub) break;
    command = sub;
  }
  return command;
}

/** The command's full name as typed: `petstore pets list`. */
export function commandPath(command: Command): string {
  const names: string[] = [];
  for (let current: Command | null = command; current; current = current.parent) {
    names.unshift(current.name());
  }
  return names.join(' ');
}

/**
 * The group a command line names and nothing more (`petstore`, `petstore pets`, with global
 * options around it): its help is the answer, on stdout, as gh gives it. Undefined when the
 * command line names a command that runs, or words no command knows.
 */
export function groupNamedAlone(program: Command, argv: readonly string[]): Command | undefined {
  let command = program;
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    if (token === '--') return undefined;
    if (token.startsWith('-')) {
      if (!token.includes('=') && takesValue(command, token)) i++;
      continue;
    }
    const sub = findSubcommand(command, token);
    if (!sub) return undefined;
    command = sub;
  }
  return command.commands.length > 0 ? command : undefined;
}

/** Verbs people reach for that the interface has no operation for. */
const NO_SUCH_OPERATION = new Set(['delete', 'remove', 'rm', 'update', 'edit', 'set', 'patch']);

/**
 * Commander's parse errors as the UsageError every other bad input raises, so they take the
 * requested output form; the hint names the help of the command actually used.
 */
export function usageErrorFromCommander(
  error: CommanderError,
  program: Command,
  argv: readonly string[],
): UsageError {
  const message = error.message
    .replace(/^error: /, '')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .join(' ');
  const command = commandOfArgv(program, argv);
  const unknown = /^unknown command '([^']*)'/.exec(message)?.[1];
  if (command.name() === 'pets' && unknown !== undefined && NO_SUCH_OPERATION.has(unknown)) {
    const names = command.commands.map((verb) => verb.name());
    const verbs = `${names.slice(0, -1).join(', ')} and ${names.at(-1)!}`;
    return new UsageError(
      `the Animal Store interface has no operation to ${unknown} a pet: pets offers ${verbs}`,
      {
        hint: `Run: ${commandPath(command)} --help (petstore api PATH -X METHOD sends a request the interface does not show)`,
      },
    );
  }
  return new UsageError(message, { hint: `Run: ${commandPath(command)} --help` });
}
