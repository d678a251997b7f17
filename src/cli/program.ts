import { Command } from 'commander';
import type { Context } from '../context.js';
import type { IO } from '../io.js';
import { registerAuth } from './auth.js';
import { registerCompletion } from './completion.js';
import { registerMessage } from './message.js';
import { registerProfile } from './profile.js';
import { registerSandbox } from './sandbox.js';
import { registerSmoke } from './smoke.js';
import { registerPets } from './pets.js';

/** Builds the context from the parsed global options and runs a verb's logic in it. */
export type RunVerb = (command: Command, action: (ctx: Context) => Promise<void>) => Promise<void>;

const ENVIRONMENT_HELP = `
Environment:
  PETSTORE_PROFILE, PETSTORE_BASE_URL, PETSTORE_QUICKSTART_URL, PETSTORE_API_KEY,
  PETSTORE_OUTPUT, PETSTORE_CONFIG_DIR, NO_COLOR, FORCE_COLOR, HTTP_PROXY, HTTPS_PROXY, NO_PROXY

Exit codes:
  0 ok  1 bug  2 usage  3 auth  4 not found  5 rejected  6 service failed  7 network
  8 smoke failed  130 interrupted`;

export function buildProgram(io: IO, runVerb: RunVerb): Command {
  const program = new Command('petstore')
    .description('Run the Animal Store service from the command line.')
    .version(__PETSTORE_VERSION__, '--version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .option('--profile <name>', 'profile to use (env PETSTORE_PROFILE)')
    .option('--base-url <url>', 'API base URL, ending with /v1 (env PETSTORE_BASE_URL)')
    .option('--quickstart-url <url>', 'quickstart base URL (env PETSTORE_QUICKSTART_URL)')
    .option('-o, --output <format>', 'table, json or ndjson (env PETSTORE_OUTPUT)')
    .option('--json', 'same as --output json')
    .option('--no-color', 'never write colour (also NO_COLOR)')
    .option('-v, --verbose', 'log HTTP exchanges to stderr, key redacted')
    .option('-q, --quiet', 'no notices or warnings on stderr')
    .option('--timeout <seconds>', 'per-request timeout in seconds (default 30)')
    .option('--retries <n>', 'retries of safe requests (default 2)')
    .option('--allow-insecure-http', 'allow sending the API key over plain http to a remote host')
    .configureHelp({ showGlobalOptions: true, sortSubcommands: true })
    .addHelpText('after', ENVIRONMENT_HELP)
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      outputError: (text, write) => write(text.replace(/^error: /, 'petstore: ')),
    })
    .showHelpAfterError("hint: add --help for usage, e.g. 'petstore pets list --help'")
    .showSuggestionAfterError();

  registerPets(program, runVerb);
  registerMessage(program, runVerb);
  registerProfile(program, runVerb);
  registerAuth(program, runVerb);
  registerSandbox(program, runVerb);
  registerSmoke(program, runVerb);
  registerCompletion(program, runVerb);
  return program;
}
