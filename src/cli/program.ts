import { Command, type Option } from '@commander-js/extra-typings';
import type { RunVerb } from '../cmdutil/run-verb.js';
import { registerMessage } from '../commands/message/index.js';
import { registerPets } from '../commands/pets/index.js';
import { GLOBAL_OPTIONS, optionHelp, OTHER_ENVIRONMENT } from '../context/global-options.js';
import { fitToWidth, helpWidth } from '../cmdutil/help-text.js';
import { helpWordAt } from './argv.js';
import type { IO } from '../core/io.js';
import { EXIT_CODE_SHORT } from '../help/reference.js';
import { HELP_TOPIC_NAMES } from '../help/topics.js';

/** Items joined by the separator, wrapped like the rest of the help at 78 columns. */
function wrapItems(items: readonly string[], separator: string): string {
  const lines: string[] = [];
  for (const item of items) {
    const last = lines.at(-1);
    if (last !== undefined && last.length + separator.length + item.length <= 76) {
      lines[lines.length - 1] = `${last}${separator}${item}`;
    } else {
      if (last !== undefined) lines[lines.length - 1] = `${last}${separator.trimEnd()}`;
      lines.push(item);
    }
  }
  return lines.join('\n  ');
}

/** Ends a sub-command's help, where the global options are not repeated. */
const GLOBALS_LINE = `
Global options (--profile, -o/--json, --query, -q, -v and more) go before or after the command: petstore --help lists them, petstore help globals says more.`;

function environmentHelp(): string {
  const variables = [
    ...GLOBAL_OPTIONS.flatMap((option) => (option.env ? [option.env] : [])),
    ...OTHER_ENVIRONMENT,
  ];
  return `
Environment:
  ${wrapItems(variables, ', ')}

Exit codes:
  ${wrapItems(EXIT_CODE_SHORT, '  ')}

Help topics: ${HELP_TOPIC_NAMES.join(', ')}
  (petstore help TOPIC; also man petstore)`;
}

/** Adds a top-level command; a group adds only `verb` of its verbs, when given one of them. */
type Register = (program: Command, runVerb: RunVerb, verb?: string) => void;

type MoreCommands = typeof import('./more-commands.js');
/** A register function of the file the other commands are in, loading it when first called. */
const fromMore = (name: keyof MoreCommands) => async (): Promise<Register> =>
  (await import('./more-commands.js'))[name];

/**
 * The top-level commands in the order they are added, and how to add each. `pets` and
 * `message`, which scripts run most, are in the program's own file; the others' code (a third
 * of the program) is loaded when a command line names one. `wholeProgram`: the command reads
 * every other command (a completion script covers them all).
 */
const COMMANDS: readonly {
  name: string;
  register: () => Register | Promise<Register>;
  wholeProgram?: true;
}[] = [
  { name: 'pets', register: () => registerPets },
  { name: 'journal', register: fromMore('registerJournal') },
  { name: 'message', register: () => registerMessage },
  { name: 'profile', register: fromMore('registerProfile') },
  { name: 'auth', register: fromMore('registerAuth') },
  { name: 'sandbox', register: fromMore('registerSandbox') },
  { name: 'smoke', register: fromMore('registerSmoke') },
  { name: 'api', register: fromMore('registerApi') },
  { name: 'doctor', register: fromMore('registerDoctor') },
  { name: 'mcp', register: fromMore('registerMcp') },
  { name: 'history', register: fromMore('registerHistory') },
  {
    name: 'completion',
    register: fromMore('registerCompletion'),
    wholeProgram: true,
  },
];

const quiet = () => undefined;

/**
 * The top-level command the command line runs, and the word after it (a group's verb), found as
 * commander finds them: its own parser reads the global options off a bare program. Undefined
 * when the line runs none of them (the top-level help, `help`, an unknown word, or an option
 * the program does not know coming first): then every command is wanted.
 */
function commandNamed(globalOptions: readonly Option[], argv: readonly string[]) {
  // A line whose first word is `help` becomes a help request before commander reads it
  // (expandHelpCommand), whatever commander would make of it: every command.
  if (helpWordAt(argv) !== -1) return undefined;
  const probe = new Command()
    .exitOverride()
    .configureOutput({ writeOut: quiet, writeErr: quiet, outputError: quiet });
  // With no commands, it reads a leading `-1` as a word where the program reads an option it
  // does not know: either way, no command runs.
  for (const option of globalOptions) probe.addOption(option);
  try {
    const [first, verb] = probe.parseOptions([...argv]).operands;
    const command = COMMANDS.find(({ name }) => name === first);
    return command && { ...command, verb };
  } catch {
    return undefined;
  }
}

/**
 * The program, with every command when `argv` is not given. Given the command line, only the
 * command it runs is added (most of the cost of building the program is in its commands), and
 * the code of the others is not loaded; every command still, when the line runs none, or runs
 * one that reads the others.
 */
export async function buildProgram(
  io: IO,
  runVerb: RunVerb,
  argv?: readonly string[],
): Promise<Command> {
  const program = new Command('petstore')
    .description('Run the Animal Store service from the command line.')
    .version(__PETSTORE_VERSION__, '--version', 'print the version')
    .helpOption('-h, --help', 'show help');
  const globalOptions = GLOBAL_OPTIONS.map((option) =>
    program.createOption(option.flags, optionHelp(option)),
  );
  for (const option of globalOptions) program.addOption(option);
  program
    // Global options are listed once, in petstore --help: in each sub-command's help they
    // were 20 of its lines, the same every time. A line there says where they are.
    .configureHelp({ showGlobalOptions: false, sortSubcommands: true })
    .addHelpText('after', environmentHelp)
    .addHelpText('afterAll', ({ command }) => (command === program ? '' : GLOBALS_LINE))
    .exitOverride()
    .configureOutput({
      // Help fits the terminal, or 80 columns where there is none: what commander does not
      // lay out itself (the text after a command's help) is fitted here.
      writeOut: (text) =>
        io.stdout.write(fitToWidth(text, helpWidth(io.stdoutColumns ?? io.requestedColumns))),
      writeErr: (text) => io.stderr.write(fitToWidth(text, helpWidth(io.stderrColumns))),
      // At most HELP_MAX_WIDTH wide; narrower at a narrower terminal (helpWidth).
      getOutHelpWidth: () => helpWidth(io.stdoutColumns ?? io.requestedColumns),
      getErrHelpWidth: () => helpWidth(io.stderrColumns),
      // main reports parse errors like any other error, in the requested output form.
      outputError: () => undefined,
    })
    .showSuggestionAfterError();

  const named = argv === undefined ? undefined : commandNamed(globalOptions, argv);
  const whole = named === undefined || named.wholeProgram === true;
  for (const command of COMMANDS) {
    if (whole) (await command.register())(program, runVerb);
    else if (command.name === named.name) (await command.register())(program, runVerb, named.verb);
  }
  if (whole) {
    program
      .command('version')
      .description('print the version (as --version does)')
      .action(() => {
        io.stdout.write(`${__PETSTORE_VERSION__}\n`);
      });
  }
  return program;
}
