import { Command } from '@commander-js/extra-typings';
import type { RunVerb } from '../cmdutil/run-verb.js';
import { registerApi } from '../commands/api/api.js';
import { registerDoctor } from '../commands/doctor/doctor.js';
import { registerAuth } from '../commands/auth/index.js';
import { registerCompletion } from '../commands/completion/completion.js';
import { registerMcp } from '../commands/mcp/mcp.js';
import { registerMessage } from '../commands/message/index.js';
import { registerJournal } from '../commands/journal/index.js';
import { registerPets } from '../commands/pets/index.js';
import { registerProfile } from '../commands/profile/index.js';
import { registerSandbox } from '../commands/sandbox/index.js';
import { registerSmoke } from '../commands/smoke/smoke.js';
import { GLOBAL_OPTIONS, optionHelp, OTHER_ENVIRONMENT } from '../context/global-options.js';
import { HELP_MAX_WIDTH } from '../core/contract.js';
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

export function buildProgram(io: IO, runVerb: RunVerb): Command {
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

  registerPets(program, runVerb);
  registerJournal(program, runVerb);
  registerMessage(program, runVerb);
  registerProfile(program, runVerb);
  registerAuth(program, runVerb);
  registerSandbox(program, runVerb);
  registerSmoke(program, runVerb);
  registerApi(program, runVerb);
  registerDoctor(program, runVerb);
  registerMcp(program, runVerb);
  registerCompletion(program, runVerb);
  program
    .command('version')
    .description('print the version (as --version does)')
    .action(() => {
      io.stdout.write(`${__PETSTORE_VERSION__}\n`);
    });
  return program;
}
