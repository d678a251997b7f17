import type { CommandUnknownOpts as Command, CommanderError } from '@commander-js/extra-typings';
import { UsageError } from '../core/errors.js';
import { HELP_TOPIC_NAMES, topicText } from '../help/topics.js';
import { commandOfArgv, findSubcommand, helpRequest } from './argv.js';

/** The text of `petstore help TOPIC` (environment, exit-codes, ...) when that is the request. */
export function helpTopicRequest(argv: readonly string[]): string | undefined {
  const names = helpRequest(argv)?.names;
  return names?.length === 1 ? topicText(names[0]!) : undefined;
}

/**
 * `petstore help pets list` means `petstore pets list --help`, however deep the command; help
 * for a command that does not exist is a usage error, not the top-level help.
 */
export function expandHelpCommand(program: Command, argv: readonly string[]): string[] {
  const request = helpRequest(argv);
  if (request === undefined || request.after.length === 0) return [...argv];
  const { names } = request;
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
  return [...request.before, ...request.after, '--help'];
}

/** The command's full name as typed: `petstore pets list`. */
export function commandPath(command: Command): string {
  const names: string[] = [];
  for (let current: Command | null = command; current; current = current.parent) {
    names.unshift(current.name());
  }
  return names.join(' ');
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
  return new UsageError(withSuggestion(message, command), {
    hint: `Run: ${commandPath(command)} --help`,
  });
}

/**
 * Commander's "(Did you mean one of list, ls?)" as part of the sentence ("; did you mean
 * list?"), a command and its own alias named once.
 */
function withSuggestion(message: string, command: Command): string {
  const found = /\s*\(Did you mean (?:one of )?(.+)\?\)$/.exec(message);
  if (found === null) return message;
  const primary = (name: string) =>
    command.commands
      .find((verb) => verb.name() === name || verb.aliases().includes(name))
      ?.name() ?? name;
  const names = [...new Set(found[1]!.split(', ').map(primary))];
  const which = names.length === 1 ? names[0]! : `one of ${names.join(', ')}`;
  return `${message.slice(0, found.index)}; did you mean ${which}?`;
}
