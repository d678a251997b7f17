import { fitToWidth, helpWidth } from './cmdutil/help-text.js';
import { boundHeap } from './core/heap-bounds.js';
import { CommanderError, type CommandUnknownOpts as Command } from '@commander-js/extra-typings';
import type { ClientFactory } from './api/create-client.js';
import type { Transport } from './api/http.js';
import { buildProgram } from './cli/program.js';
import {
  asksForHelp,
  commandOfArgv,
  groupNamedAlone,
  optionGivenAsValue,
  verboseAsked,
} from './cli/argv.js';
import {
  commandPath,
  expandHelpCommand,
  helpTopicRequest,
  usageErrorFromCommander,
} from './cli/usage.js';
import { verbPath, type RunVerb } from './cmdutil/run-verb.js';
import { createContext, type Keyring, type Context } from './context/context.js';
import { resolveTarget } from './context/resolve-target.js';
import {
  errorsInJson,
  resolveSettings,
  type RawGlobalOptions,
  type Settings,
} from './context/settings.js';
import { InterruptedError, OutputFailedError, UsageError } from './core/errors.js';
import { processIO, type Env, type IO } from './core/io.js';
import { commandLineSecrets } from './cli/command-line-secrets.js';
import { environmentSecrets } from './context/environment-secrets.js';
import { guardedIO } from './core/guarded-io.js';
import { credentialSecrets, SecretRedactor } from './core/redaction/index.js';
import { withStatusLine } from './core/status-line.js';
import { jsonStderrIO, stderrLine } from './output/json-stderr.js';
import { ExitCode, reportError } from './output/report-error.js';

/** What tests may replace; production passes nothing. */
export interface MainDeps {
  /** Carries the requests of every API client (a recording fake in command tests). */
  transport?: Transport;
  /**
   * Receives each verb's typed options instead of running it, as the GitHub CLI's runF does:
   * flag-level tests check what a command line turns into.
   */
  runF?: (verb: string, options: unknown, ctx: Context) => Promise<void> | void;
  /** The OS keyring (tests give an in-memory one, or one that never answers). */
  keyring?: Keyring;
  /** How to run this program again, for the keyring helper: given by bin/petstore.js. */
  selfCommand?: readonly string[];
  /** The process ends when main returns (bin/petstore.js): idle connections are left to it. */
  endsWithProcess?: boolean;
  /** Every command built, whatever the command line runs (tests compare it with building one). */
  wholeProgram?: boolean;
}

const HELP_OR_VERSION = new Set(['commander.helpDisplayed', 'commander.help', 'commander.version']);

const loadClientFactory: ClientFactory = async (target, settings) => {
  const { createClient } = await import('./api/create-client.js');
  return createClient(target, settings);
};

/**
 * For the answers main() gives before the program is loaded (--version, help): stdout could
 * not be written. Reported in the form the run's errors would take.
 */
export function reportOutputFailure(failure: NodeJS.ErrnoException, io: IO, env: Env): number {
  const json = errorsInJson({}, env, io);
  return reportError(new OutputFailedError(failure), {
    json,
    verbose: false,
    write: (text) => io.stderr.write(text),
  });
}

/**
 * The run's redactor, holding from the start the secrets the environment and the command line
 * give: a usage error quoting a word (a key typed where a value goes), or anything else, masks
 * them.
 */
function runRedactor(argv: readonly string[], env: Env): SecretRedactor {
  const redactor = new SecretRedactor();
  const fromEnv = environmentSecrets(env);
  for (const key of fromEnv.keys) redactor.add(key);
  for (const secret of [...fromEnv.hidden, ...commandLineSecrets(argv)]) {
    redactor.add(secret, { hidden: true });
  }
  return redactor;
}

/**
 * A word refused as an unknown option is no data (no command ran to print any): meant as a
 * URL (`api -tok@host`), its userinfo, a token alone too, is masked in the error quoting it.
 */
function protectRefusedOption(error: CommanderError, redactor: SecretRedactor): CommanderError {
  if (error.code !== 'commander.unknownOption') return error;
  const word = /unknown option '([^']*)'/.exec(error.message)?.[1] ?? '';
  for (const secret of credentialSecrets(word)) redactor.add(secret, { hidden: true });
  return error;
}

/** The run's IO behind its last net (see runMain). */
function nettedIO(io: IO, redactor: SecretRedactor, json: () => boolean): IO {
  return guardedIO(jsonStderrIO(withStatusLine(io), json), redactor);
}

/**
 * `petstore` or `petstore pets` alone: the help, on stdout, as success. The values of the flags
 * given with it are checked all the same (`--timeout abc pets` is a usage error, not help); the
 * environment is not read for the help.
 */
function helpOfGroupAlone(program: Command, argv: readonly string[], io: IO): boolean {
  const group = groupNamedAlone(program, argv);
  if (group === undefined) return false;
  program.parseOptions([...argv]);
  resolveSettings(program.opts(), {}, io);
  group.outputHelp();
  return true;
}

/**
 * An option given where another's value belongs is a usage error, not a value (a pet named
 * `--json`) nor the program's own flag (`--version` in `pets add --name --version`, which
 * printed the version and ran nothing, exit 0).
 */
function refuseOptionAsValue(program: Command, args: readonly string[]): void {
  const found = optionGivenAsValue(program, args);
  if (found === undefined) return;
  const { flag, value, command } = found;
  throw new UsageError(`option ${flag} needs a value, and got the option ${value} instead`, {
    hint: `Give ${flag} its value; one that starts with a dash goes with an equals sign (${flag.startsWith('--') ? `${flag}=${value}` : `${flag}${value}`}). Run: ${commandPath(command)} --help`,
  });
}

/** Runs the command line and returns the exit code; never exits the process itself. */
/**
 * -o table (csv, tsv) asked for on the command line, and --query: the query's JSON is what
 * prints, said once rather than leaving the person to wonder where the table went.
 */
function warnQueryOverTable(raw: RawGlobalOptions, settings: Settings, io: IO): void {
  const asked = (raw as { output?: unknown }).output;
  if (settings.quiet || typeof asked !== 'string') return;
  if (!['table', 'csv', 'tsv'].includes(settings.output)) return;
  const message = `--query prints its result as JSON: -o ${settings.output} is not used with it`;
  io.stderr.write(stderrLine('warning', message, settings.errorsAsJson));
}

/** How the run's error is written: to stderr, as JSON or as text fitted to its terminal. */
function errorReporting(io: IO, json: boolean, verbose: boolean) {
  return { json, verbose, width: io.stderrColumns, write: (text: string) => io.stderr.write(text) };
}

export async function runMain(
  argv: readonly string[],
  io: IO = processIO(),
  env: Env = process.env,
  deps: MainDeps = {},
): Promise<number> {
  // Everything written goes through the last net: no key the run knows of is ever printed,
  // nothing on stderr can drive the terminal, and with errors as JSON every stderr line is
  // a JSON object, whoever wrote it.
  const redactor = runRedactor(argv, env);
  /** Set once the global options are known; until then, derived from what was parsed. */
  let jsonErrors: boolean | undefined;
  io = nettedIO(io, redactor, () => jsonErrors === true);
  let ctx: Context | undefined;
  let verbose = verboseAsked(argv);

  const runVerb: RunVerb = async (command, toOptions, run) => {
    // A verb may stream millions of records: V8's heap stays near what is live.
    boundHeap();
    const raw = command.optsWithGlobals() as RawGlobalOptions;
    verbose = raw.verbose === true;
    // Known before any other setting is checked, so every error takes the requested form.
    jsonErrors = errorsInJson(raw, env, io);
    const settings = resolveSettings(raw, env, io);
    // Compiled before anything is sent: a bad expression is a usage error, found at once.
    const query =
      settings.query === undefined
        ? undefined
        : await (
            await import('./output/query.js')
          ).compileQuery(settings.query, (message) => {
            if (!settings.quiet)
              io.stderr.write(stderrLine('warning', message, settings.errorsAsJson));
          });
    if (query !== undefined) warnQueryOverTable(raw, settings, io);
    ctx = createContext({
      query,
      io,
      env,
      settings,
      resolveTarget,
      createClient: loadClientFactory,
      transport: deps.transport,
      redactor,
      keyring: deps.keyring,
      selfCommand: deps.selfCommand,
      endsWithProcess: deps.endsWithProcess,
    });
    let options;
    try {
      options = toOptions(env);
    } catch (error) {
      // A flag's value it cannot use: said with where to read what it takes, as for commander's.
      if (!(error instanceof UsageError) || error.hint !== undefined) throw error;
      throw new UsageError(error.message, {
        hint: `Run: petstore ${verbPath(command)} --help`,
        cause: error.cause,
      });
    }
    if (deps.runF) await deps.runF(verbPath(command), options, ctx);
    else await run(ctx, options);
  };
  // A help topic needs no program.
  const topic = helpTopicRequest(argv);
  if (topic !== undefined) {
    io.stdout.write(fitToWidth(topic, helpWidth(io.stdoutColumns ?? io.requestedColumns)));
    return ExitCode.ok;
  }
  // Only the command the line runs, unless it runs none (see buildProgram).
  const program = await buildProgram(io, runVerb, deps.wholeProgram ? undefined : argv);
  let args = [...argv];

  try {
    refuseOptionAsValue(program, argv);
    if (helpOfGroupAlone(program, argv, io)) return ExitCode.ok;
    args = expandHelpCommand(program, argv);
    await program.parseAsync(args, { from: 'user' });
    await io.stdoutFlushed();
    const failure = io.stdoutError();
    if (failure) throw new OutputFailedError(failure);
    return ExitCode.ok;
  } catch (caught) {
    let error = caught;
    if (error instanceof CommanderError) {
      // Help and version are written already; a help shown for a missing subcommand is exit 2.
      if (HELP_OR_VERSION.has(error.code))
        return error.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
      error = usageErrorFromCommander(protectRefusedOption(error, redactor), program, args);
    } else if (error instanceof UsageError && error.hint === undefined && ctx === undefined) {
      const command = commandOfArgv(program, args);
      // Help asked for beside a bad value: the help is what was asked for.
      if (asksForHelp(args)) {
        command.outputHelp();
        return ExitCode.ok;
      }
      // A flag's value its parser refused, as commander read the command line: said with where
      // to read what the flag takes, as a verb's own checks are.
      error = new UsageError(error.message, {
        hint: `Run: ${commandPath(command)} --help`,
        cause: error.cause,
      });
    }
    // A usage error may quote a word of the command line: a stored key typed there by mistake
    // (`auth login sk_...`) is masked too. The config file is read for it on this path alone;
    // the OS keyring is not opened (it may ask to be unlocked).
    if (error instanceof UsageError && ctx === undefined) {
      await (await import('./context/stored-keys.js')).protectStoredKeys(env, redactor);
    }
    jsonErrors ??= errorsInJson(program.opts(), env, io);
    if (error instanceof InterruptedError && error.immediate) {
      // Stopped at once: closing would wait for the requests still in flight.
      void ctx?.close().catch(() => undefined);
      ctx = undefined;
    }
    return reportError(error, errorReporting(io, jsonErrors, verbose));
  } finally {
    await ctx?.close().catch(() => undefined);
  }
}
