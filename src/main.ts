import { CommanderError } from 'commander';
import { resolveTarget } from './config/resolve-target.js';
import { createContext, type Context } from './context.js';
import { processIO, type Env, type IO } from './io.js';
import { ExitCode, reportError } from './report-error.js';
import { buildProgram } from './cli/program.js';
import { resolveSettings, type RawGlobalOptions } from './settings.js';

const SILENT_COMMANDER_EXITS = new Set([
  'commander.helpDisplayed',
  'commander.version',
  'commander.help',
]);

/** Runs the command line and returns the exit code; never exits the process itself. */
export async function main(
  argv: readonly string[],
  io: IO = processIO(),
  env: Env = process.env,
): Promise<number> {
  let ctx: Context | undefined;
  let verbose = argv.includes('-v') || argv.includes('--verbose');
  let jsonErrors = false;

  const program = buildProgram(io, async (command, action) => {
    const raw = command.optsWithGlobals<RawGlobalOptions>();
    verbose = raw.verbose === true;
    const settings = resolveSettings(raw, env, io);
    jsonErrors = settings.output !== 'table';
    ctx = createContext({ io, env, settings, resolveTarget });
    await action(ctx);
  });

  try {
    await program.parseAsync([...argv], { from: 'user' });
    return ExitCode.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander has already written the message or the help text.
      return SILENT_COMMANDER_EXITS.has(error.code) && error.exitCode === 0
        ? ExitCode.ok
        : ExitCode.usage;
    }
    return reportError(error, { json: jsonErrors, verbose, write: (t) => io.stderr.write(t) });
  } finally {
    await ctx?.close().catch(() => undefined);
  }
}
