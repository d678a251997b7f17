import type { CommandUnknownOpts as Command } from '@commander-js/extra-typings';

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

/**
 * The commands the line's words name, from the program down, options and their values skipped;
 * `complete` is false when a word names no command there (or `--` ends the options first).
 */
function walkCommands(
  program: Command,
  argv: readonly string[],
): { command: Command; complete: boolean } {
  let command = program;
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    if (token === '--') return { command, complete: false };
    if (token.startsWith('-')) {
      if (!token.includes('=') && takesValue(command, token)) i++;
      continue;
    }
    const sub = findSubcommand(command, token);
    if (!sub) return { command, complete: false };
    command = sub;
  }
  return { command, complete: true };
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
  return complete && command.commands.length > 0 ? command : undefined;
}
