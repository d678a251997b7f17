import { Command, Option } from '@commander-js/extra-typings';
import type { RunVerb } from '../cmdutil/run-verb.js';
import { commandsToLoad, TOP_COMMANDS, type TopCommand } from './command-table.js';
import { GLOBAL_OPTIONS, optionHelp, OTHER_ENVIRONMENT } from '../context/global-options.js';
import { HELP_MAX_WIDTH } from '../core/contract.js';
import type { IO } from '../core/io.js';
import { EXIT_CODE_SHORT } from '../help/reference.js';
import { HELP_TOPIC_NAMES } from '../help/topics.js';

/** A command not loaded: its line in the program's help, and nothing else. */
function addStub(program: Command, command: TopCommand): void {
  const stub = program.command(command.name).description(command.summary);
  for (const arg of command.args ?? []) stub.argument(arg);
  // The help line says [options] when a command has any: a hidden one says it for the stub.
  if (command.options) stub.addOption(new Option('--stub').hideHelp());
}

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

Help topics: ${HELP_TOPIC_NAMES.join(', ')} (petstore help TOPIC; also man petstore)`;
}

/**
 * The program, with the top-level commands the command line names loaded (every one when
 * `all`), and the others as stubs that say their name and summary (see command-table.ts).
 */
export async function buildProgram(
  io: IO,
  runVerb: RunVerb,
  argv: readonly string[] | 'all',
): Promise<Command> {
  const program = new Command('petstore')
    .description('Run the Animal Store service from the command line.')
    .version(__PETSTORE_VERSION__, '--version', 'print the version')
    .helpOption('-h, --help', 'show help');
  for (const option of GLOBAL_OPTIONS) program.option(option.flags, optionHelp(option));
  program
    .configureHelp({ showGlobalOptions: true, sortSubcommands: true })
    .addHelpText('after', environmentHelp())
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      // At most HELP_MAX_WIDTH wide; narrower at a narrower terminal.
      getOutHelpWidth: () => Math.min(io.stdoutColumns ?? HELP_MAX_WIDTH, HELP_MAX_WIDTH),
      getErrHelpWidth: () => Math.min(io.stderrColumns ?? HELP_MAX_WIDTH, HELP_MAX_WIDTH),
      // main reports parse errors like any other error, in the requested output form.
      outputError: () => undefined,
    })
    .showSuggestionAfterError();

  const loaded = argv === 'all' ? TOP_COMMANDS : commandsToLoad(argv);
  for (const command of TOP_COMMANDS) {
    if (loaded.includes(command)) (await command.load())(program, runVerb);
    else addStub(program, command);
  }
  program
    .command('version')
    .description('print the version (as --version does)')
    .action(() => {
      io.stdout.write(`${__PETSTORE_VERSION__}\n`);
    });
  return program;
}
