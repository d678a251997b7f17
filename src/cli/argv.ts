import type { CommandUnknownOpts as Command } from '@commander-js/extra-typings';
import { isRunAlone } from '../cmdutil/verbs.js';

/**
 * Every reading of the command line outside commander's own parse, in one place: the help fast
 * path (before commander is loaded), the `help` word, the command a line names and verbose.
 * Commander reads the line that runs; these answer what must be known before it does, or what
 * it does not say when it fails. No import but types: main.ts uses it before loading anything.
 */

/** Tokens before `--`, which ends the options. */
function beforeOptionsEnd(argv: readonly string[]): readonly string[] {
  const end = argv.indexOf('--');
  return end === -1 ? argv : argv.slice(0, end);
}

/**
 * What main answers before loading the program: the version, the keyring helper (the tool run
 * as its own child to reach the OS keyring), shell completion of profile names, or help from
 * dist/help.json (`helpKeys`). Undefined: the program runs the line.
 */
export type FastPath =
  | { kind: 'version' }
  | { kind: 'keyring helper'; args: readonly string[] }
  | { kind: 'profile names' }
  | { kind: 'help'; keys: string[] };

export function fastPath(argv: readonly string[]): FastPath | undefined {
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === 'version')) {
    return { kind: 'version' };
  }
  if (argv[0] === '__keyring') return { kind: 'keyring helper', args: argv.slice(1) };
  if (argv.length === 2 && argv[0] === '__complete' && argv[1] === 'profiles') {
    return { kind: 'profile names' };
  }
  const keys = helpKeys(argv);
  return keys === undefined ? undefined : { kind: 'help', keys };
}

/**
 * The keys of dist/help.json that may answer the command line, first match wins: the command
 * path of `PATH --help`, `PATH -h` or `help PATH` ('' for the program), and for `help WORD` the
 * topic `topic:WORD` before the command WORD. Undefined when it asks for anything else.
 */
function helpKeys(argv: readonly string[]): string[] | undefined {
  if (argv.some((arg) => arg.startsWith('-') && arg !== '--help' && arg !== '-h')) return;
  const last = argv.at(-1);
  if (last === '--help' || last === '-h') {
    const words = argv.slice(0, -1);
    return words.some((word) => word.startsWith('-')) ? undefined : [words.join(' ')];
  }
  if (argv[0] !== 'help') return undefined;
  const path = argv.slice(1).join(' ');
  return argv.length === 2 ? [`topic:${path}`, path] : [path];
}

/**
 * Where `help` stands as the command line's first word, global flags around it, or -1. Read
 * before commander reads the line: `help` is the first word even where commander would take it
 * for a flag's value (`--profile help`).
 */
export function helpWordAt(argv: readonly string[]): number {
  const at = argv.findIndex((arg) => !arg.startsWith('-'));
  return at !== -1 && argv[at] === 'help' ? at : -1;
}

/**
 * `help` as the first word (`petstore help pets list`): the tokens before and after it, and
 * the names after it (its options left out). Undefined when `help` is not the first word.
 */
export function helpRequest(
  argv: readonly string[],
): { before: string[]; after: string[]; names: string[] } | undefined {
  const at = helpWordAt(argv);
  if (at === -1) return undefined;
  const after = argv.slice(at + 1);
  return { before: argv.slice(0, at), after, names: after.filter((arg) => !arg.startsWith('-')) };
}

/** True when the command line asks for help (`-h`, `--help`) before any `--`. */
export function asksForHelp(argv: readonly string[]): boolean {
  return beforeOptionsEnd(argv).some((token) => token === '-h' || token === '--help');
}

/**
 * True when the line asks for verbose output (`-v`, `--verbose`) before any `--`: known before
 * commander parses, so a failure of the parse itself is reported as asked.
 */
export function verboseAsked(argv: readonly string[]): boolean {
  return beforeOptionsEnd(argv).some((token) => token === '-v' || token === '--verbose');
}

export function findSubcommand(command: Command, name: string): Command | undefined {
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

/** Whether an option's parser takes this value (a choice, a range): commander's own check. */
function valueTaken(option: NonNullable<ReturnType<typeof optionOf>>, value: string): boolean {
  try {
    option.parseArg?.(value, undefined);
    return true;
  } catch {
    return false;
  }
}

/**
 * How many tokens the option at `argv[at]` takes (1, or 2 with a separate value), or undefined
 * when commander would refuse it: an option no command above knows, a value missing or one
 * its parser refuses, or --version (commander's own). Short flags run together (`-qo json`):
 * the first that takes a value takes the rest of the token or, last, the next token.
 */
function optionTokens(command: Command, argv: readonly string[], at: number): 1 | 2 | undefined {
  const token = argv[at]!;
  if (token === '--version') return undefined;
  const takes = (option: NonNullable<ReturnType<typeof optionOf>>) =>
    option.required || option.optional;
  if (token.startsWith('--')) {
    const equals = token.indexOf('=');
    const option = optionOf(command, equals === -1 ? token : token.slice(0, equals));
    if (option === undefined) return undefined;
    if (equals !== -1)
      return takes(option) && valueTaken(option, token.slice(equals + 1)) ? 1 : undefined;
    if (!takes(option)) return 1;
    const value = argv[at + 1];
    if (value === undefined && option.required) return undefined;
    return value === undefined || valueTaken(option, value) ? 2 : undefined;
  }
  const letters = token.slice(1);
  for (let index = 0; index < letters.length; index++) {
    const option = optionOf(command, `-${letters[index]}`);
    if (option === undefined) return undefined;
    if (!takes(option)) continue;
    const rest = letters.slice(index + 1);
    if (rest !== '') return valueTaken(option, rest) ? 1 : undefined;
    const value = argv[at + 1];
    if (value === undefined) return option.required ? undefined : 1;
    return valueTaken(option, value) ? 2 : undefined;
  }
  return 1;
}

/**
 * The commands the line's words name, from the program down, options and their values skipped;
 * `complete` is false when a word names no command there, `--` ends the options first, or an
 * option is one commander would refuse (it then says why).
 */
function walkCommands(
  program: Command,
  argv: readonly string[],
): { command: Command; complete: boolean } {
  let command = program;
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    if (token === '--') return { command, complete: false };
    if (token.startsWith('-') && token !== '-') {
      const tokens = optionTokens(command, argv, i);
      if (tokens === undefined) return { command, complete: false };
      i += tokens - 1;
      continue;
    }
    const sub = findSubcommand(command, token);
    if (!sub) return { command, complete: false };
    command = sub;
  }
  return { command, complete: true };
}

/** Whether a token names an option where it stands (the command's, a group's, help) or ends them. */
function namesAnOption(command: Command, token: string): boolean {
  if (!token.startsWith('-') || token === '-') return false;
  // `--` ends the options: given as a value, it is far more likely a value forgotten.
  if (token === '--') return true;
  const flag = token.startsWith('--') ? token.split('=')[0]! : token.slice(0, 2);
  return flag === '--version' || flag === '--help' || flag === '-h' || !!optionOf(command, flag);
}

/**
 * An option that needs a value followed by another option instead (`pets add --name --version`):
 * commander would read the second as the value, or as the program's own flag (--version printed
 * the version and ran nothing). Undefined when no option's value is one; a value that starts
 * with a dash but names no option (`--limit -5`) is left to the option's parser.
 */
export function optionGivenAsValue(
  program: Command,
  argv: readonly string[],
): { flag: string; value: string; command: Command } | undefined {
  let command = program;
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    if (token === '--') return undefined;
    if (token.startsWith('-') && token !== '-') {
      const tokens = optionTokens(command, argv, i);
      if (tokens === undefined) return undefined;
      if (tokens === 2) {
        // The option that takes the next token: the token itself, or its last letter.
        const flag = token.startsWith('--') ? token : `-${token.at(-1)!}`;
        const value = argv[i + 1]!;
        if (optionOf(command, flag)?.required && namesAnOption(command, value)) {
          return { flag, value, command };
        }
        i++;
      }
      continue;
    }
    const sub = findSubcommand(command, token);
    if (!sub) return undefined;
    command = sub;
  }
  return undefined;
}

/** The command the user was running: `pets add` in `petstore --json pets add --nme x`. */
export function commandOfArgv(program: Command, argv: readonly string[]): Command {
  return walkCommands(program, argv).command;
}

/**
 * The group a command line names and nothing more (`petstore`, `petstore pets`, with global
 * options around it): its help is the answer, on stdout, as gh gives it. Undefined when the
 * command line names a command that runs, or words no command knows.
 */
export function groupNamedAlone(program: Command, argv: readonly string[]): Command | undefined {
  const { command, complete } = walkCommands(program, argv);
  return complete && command.commands.length > 0 && !isRunAlone(command) ? command : undefined;
}
