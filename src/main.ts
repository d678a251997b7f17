import { CommanderError } from 'commander';
import { resolveTarget } from './config/resolve-target.js';
import { createContext, type Context } from './context.js';
import { processIO, type Env, type IO } from './io.js';
import { ExitCode, reportError } from './report-error.js';
import { buildProgram } from './cli/program.js';
import { outputFormatOrTable, resolveSettings, type RawGlobalOptions } from './settings.js';

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
    // Known before any other setting is checked, so every error takes the requested form.
    jsonErrors = outputFormatOrTable(raw, env, io) !== 'table';
    const settings = resolveSettings(raw, env, io);
    ctx = createContext({ io, env, settings, resolveTarget });
    await action(ctx);
  });

  try {
    await program.parseAsync([...argv], { from: 'user' });
    return ExitCode.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander has already written the message, the help or the version.
      return error.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
    }
    return reportError(error, { json: jsonErrors, verbose, write: (t) => io.stderr.write(t) });
  } finally {
    await ctx?.close().catch(() => undefined);
  }
}
