import { Option, type Command } from '@commander-js/extra-typings';
import { helpProse } from '../../cmdutil/help-text.js';
import type { FlagsOf, RunVerb } from '../../cmdutil/run-verb.js';
import { dataDir, journalsDir } from '../../config/paths.js';
import {
  activeProfile,
  agentWritesOf,
  isEmbeddedProfile,
  noSuchProfile,
  profileExists,
} from '../../config/profiles.js';
import type { RunOutput, RunServices, RunState } from '../../context/context.js';
import { UsageError } from '../../core/errors.js';
import { randomHex } from '../../core/random-hex.js';
import { unfindableBecause } from '../../core/redaction/index.js';
import { MCP_CLIENTS, mcpClientConfig, mcpClientWhere, type McpClient } from './print-config.js';

export interface McpOptions {
  allowWrites: boolean;
  printConfig: McpClient | undefined;
}

/** `mcp`'s flags, declared once (name, help, parser). */
function declareMcp(program: Command) {
  return program
    .command('mcp')
    .description('Serve the store to an AI agent: an MCP server over stdio, for one profile')
    .option('--allow-writes', 'let the agent write (as far as the profile allows: --agent-writes)')
    .addOption(
      new Option(
        '--print-config <client>',
        'print the snippet that registers this server in a client (no key in it)',
      ).choices(MCP_CLIENTS),
    )
    .addHelpText('after', MCP_HELP);
}

const MCP_HELP = helpProse(`
The server speaks the Model Context Protocol on stdin and stdout (nothing else is written
there; its log goes to stderr) and serves the profile chosen when it starts, with the key
that profile already has (keyring, config file or PETSTORE_API_KEY): no key is ever shown to
the agent, in a tool's input, result, error or this log.

Tools: list_pets, get_pet (deprecated), smoke (read only); add_pet, add_pets (many pets,
journaled and created exactly once, completed by calling it again with its batch_id) and
send_message (writes). Ids and category ids travel as strings of digits, exact past 2^53.

Writes need --allow-writes and a profile that allows them (petstore profile set NAME
--agent-writes allow|confirm|deny; production defaults to deny, every other profile to
confirm). With confirm, each write is shown to the person first (the request as --dry-run
prints it, and its Idempotency-Key) through the client's elicitation; a client that cannot
ask is refused. A write called again with the same request_id reuses its Idempotency-Key.

Examples:
  $ petstore --profile staging mcp --print-config claude
  $ petstore --profile staging mcp --allow-writes
  $ petstore profile set staging --agent-writes allow`);

export function toMcpOptions(flags: FlagsOf<ReturnType<typeof declareMcp>>): McpOptions {
  return { allowWrites: flags.allowWrites === true, printConfig: flags.printConfig };
}

/** The profile the snippet fixes: the one chosen now (--profile, PETSTORE_PROFILE, active). */
async function printConfig(ctx: RunOutput & RunServices, options: McpOptions, client: McpClient) {
  const data = await (await ctx.config()).read();
  const profile = ctx.settings.profile?.name ?? activeProfile(data);
  // A snippet that cannot start is refused here, not found out by the client later.
  if (!profileExists(data, profile)) throw noSuchProfile(profile, data);
  const args = ['--profile', profile];
  if (ctx.settings.baseUrl !== undefined) args.push('--base-url', ctx.settings.baseUrl);
  if (options.allowWrites) args.push('--allow-writes');
  ctx.io.stdout.write(mcpClientConfig(client, ctx.selfCommand ?? [], args));
  ctx.notice(`Add it to ${mcpClientWhere(client)}.`);
  if (!isEmbeddedProfile(profile)) {
    const target = await ctx.target();
    if (target.keySource === 'none' || target.keySource === 'env') {
      ctx.warn(
        target.keySource === 'env'
          ? `profile ${profile}'s key comes from PETSTORE_API_KEY in this shell, which the client will not have: store it with petstore auth login --profile ${profile}`
          : `profile ${profile} has no key yet, so the server will not start: petstore auth login --profile ${profile}`,
      );
    }
  }
}

export async function runMcp(
  ctx: RunOutput & RunServices & RunState,
  options: McpOptions,
): Promise<void> {
  if (options.printConfig !== undefined) return printConfig(ctx, options, options.printConfig);
  const target = await ctx.target();
  // The key is checked now: a server that cannot reach its service says so as it starts.
  const quiet = { warnDeprecations: false };
  const client = await ctx.clientFor(target, {}, quiet);
  // A key the run cannot tell from data is not masked where the service echoes it: an agent
  // must never be served such a key.
  const unfindable = target.apiKey === undefined ? undefined : unfindableBecause(target.apiKey);
  if (unfindable !== undefined) {
    throw new UsageError(
      `the API key of ${target.label} cannot be told from data (${unfindable}), so it could reach the agent where the service echoes it; petstore mcp does not serve it`,
      { hint: 'Use a key of 8 or more characters with a letter in it.' },
    );
  }
  const data = await (await ctx.config()).read();
  const { serveMcp } = await import('../../mcp/server.js');
  const log = (line: string) => {
    if (!ctx.settings.quiet) ctx.io.stderr.write(`petstore mcp: ${line}\n`);
  };
  await serveMcp(
    {
      policy: {
        label: target.label,
        profile: target.profile,
        allowWrites: options.allowWrites,
        agentWrites: agentWritesOf(data, target.profile),
      },
      service: target.embeddedSandbox ? 'sandbox' : (target.baseUrl ?? target.label),
      quickstartUrl: target.quickstartUrl,
      client: () => Promise.resolve(client),
      // A key no service can know, to see that the service refuses it.
      unauthenticated: () =>
        ctx.clientFor({ ...target, apiKey: `sk_invalid_${randomHex(12)}` }, {}, quiet),
      dataDir: dataDir(ctx.env),
      journalsDir: journalsDir(ctx.env),
      signals: ctx.io,
      log,
      version: __PETSTORE_VERSION__,
    },
    { stdin: ctx.io.stdin, stdout: ctx.io.stdout },
  );
}

export function registerMcp(program: Command, runVerb: RunVerb): void {
  const mcp = declareMcp(program);
  mcp.action((flags) => runVerb(mcp, () => toMcpOptions(flags), runMcp));
}
