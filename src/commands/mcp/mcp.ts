import { Option, type Command } from '@commander-js/extra-typings';
import { helpProse } from '../../cmdutil/help-text.js';
import type { FlagsOf, RunVerb } from '../../cmdutil/run-verb.js';
import { dirname, resolve } from 'node:path';
import { configDir, dataDir, journalsDir, stateDir } from '../../config/paths.js';
import type { Env } from '../../core/io.js';
import {
  activeProfile,
  agentWritesOf,
  isEmbeddedProfile,
  noSuchProfile,
  profileExists,
} from '../../config/profiles.js';
import type { RunOutput, RunServices, RunState } from '../../context/context.js';
import type { Settings } from '../../context/settings.js';
import { RETRIES, TIMEOUT_SECONDS } from '../../core/contract.js';
import { closestNames } from '../../core/did-you-mean.js';
import { UsageError } from '../../core/errors.js';
import { TOOL_NAMES, type ToolName } from '../../mcp/tool-names.js';
import { unknownApiKey } from '../../core/api-key.js';
import { unfindableBecause } from '../../core/redaction/index.js';
import { credentialSecrets } from '../../core/redaction/url-credentials.js';
import { MCP_CLIENTS, mcpClientConfig, mcpClientWhere, type McpClient } from './print-config.js';

export interface McpOptions {
  allowWrites: boolean;
  printConfig: McpClient | undefined;
  /** The tools offered (`--tools`); undefined: every one. */
  tools: ToolName[] | undefined;
}

/** --tools list_pets,get_pet: the tools the agent is offered; an unknown name is refused. */
export function toolsFlag(text: string): ToolName[] {
  const names = text.split(',').map((name) => name.trim());
  const known: readonly string[] = TOOL_NAMES;
  for (const name of names) {
    if (known.includes(name)) continue;
    const close = name === '' ? [] : closestNames(name, TOOL_NAMES);
    throw new UsageError(
      name === ''
        ? '--tools: an empty tool name'
        : `--tools: no tool named "${name}"${close.length ? ` (did you mean ${close.join(' or ')}?)` : ''}`,
      { hint: `The tools: ${TOOL_NAMES.join(', ')} (comma-separated).` },
    );
  }
  return TOOL_NAMES.filter((name) => names.includes(name));
}

/** `mcp`'s flags, declared once (name, help, parser). */
function declareMcp(program: Command) {
  return program
    .command('mcp')
    .description('Serve the store to an AI agent: an MCP server over stdio, for one profile')
    .option('--allow-writes', 'let the agent write (as far as the profile allows: --agent-writes)')
    .option(
      '--tools <names>',
      `offer only these tools, comma-separated (of ${TOOL_NAMES.join(', ')})`,
      toolsFlag,
    )
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

Tools: list_pets, get_pet (deprecated), smoke (read only); add_pet, send_message and
add_pets (many pets, journaled and created exactly once, completed by calling it again with
the same pets) (writes). Ids and category ids travel as strings of digits, exact past 2^53.

Writes need --allow-writes and a profile that allows them (petstore profile set NAME
--agent-writes allow|confirm|deny; production defaults to deny, every other profile to
confirm). With confirm, each write is shown to the person first (the request as --dry-run
prints it, and its Idempotency-Key) through the client's elicitation; a client that cannot
ask is refused. A write called again with the same request_id reuses its Idempotency-Key.

--tools offers only the tools named (tools/list gives them in the order above); with
--tools list_pets,get_pet the agent cannot even see that writes exist.

Examples:
  $ petstore --profile staging mcp --print-config claude
  $ petstore --profile staging mcp --tools list_pets,get_pet,smoke
  $ petstore --profile staging mcp --allow-writes
  $ petstore profile set staging --agent-writes allow`);

export function toMcpOptions(flags: FlagsOf<ReturnType<typeof declareMcp>>): McpOptions {
  return {
    allowWrites: flags.allowWrites === true,
    printConfig: flags.printConfig,
    tools: flags.tools,
  };
}

/**
 * What the server needs of this shell's environment to find the same profile, journals and
 * sandbox: a client starts it with a filtered environment (HOME and PATH, little else). The
 * folders that differ from HOME's defaults, by absolute path; never a key.
 */
export function serverEnv(env: Env): Record<string, string> {
  const bare: Env = { HOME: env.HOME };
  const chosen: Record<string, string> = {};
  if (configDir(env) !== configDir(bare)) chosen.PETSTORE_CONFIG_DIR = resolve(configDir(env));
  if (dataDir(env) !== dataDir(bare)) chosen.XDG_DATA_HOME = resolve(dirname(dataDir(env)));
  if (stateDir(env) !== stateDir(bare)) chosen.XDG_STATE_HOME = resolve(dirname(stateDir(env)));
  return chosen;
}

/**
 * The global settings of this command line (flag or environment) the server must run with to
 * reach the same service the same way: the URLs, and the client settings that differ from their
 * defaults. A URL that holds credentials is refused: the client's config would show it to anyone
 * who reads it, and the server's command line to anyone who lists processes.
 */
export function serverSettings(settings: Settings): string[] {
  const args: string[] = [];
  for (const [flag, value] of [
    ['--base-url', settings.baseUrl],
    ['--quickstart-url', settings.quickstartUrl],
  ] as const) {
    if (value === undefined) continue;
    if (credentialSecrets(value).length > 0) {
      throw new UsageError(`${flag} holds credentials, which a client's config would show`, {
        hint: `Store the URL in the profile instead (petstore profile set NAME ${flag} URL), then print the config again without ${flag}.`,
      });
    }
    args.push(flag, value);
  }
  const { timeoutSeconds, retries, allowInsecureHttp } = settings.http;
  if (timeoutSeconds !== TIMEOUT_SECONDS.default) args.push('--timeout', String(timeoutSeconds));
  if (retries !== RETRIES.default) args.push('--retries', String(retries));
  if (allowInsecureHttp) args.push('--allow-insecure-http');
  return args;
}

/** The profile the snippet fixes: the one chosen now (--profile, PETSTORE_PROFILE, active). */
async function printConfig(ctx: RunOutput & RunServices, options: McpOptions, client: McpClient) {
  const data = await (await ctx.config()).read();
  const profile = ctx.settings.profile?.name ?? activeProfile(data);
  // A snippet that cannot start is refused here, not found out by the client later.
  if (!profileExists(data, profile)) throw noSuchProfile(profile, data);
  const args = ['--profile', profile, ...serverSettings(ctx.settings)];
  if (options.allowWrites) args.push('--allow-writes');
  if (options.tools !== undefined) args.push('--tools', options.tools.join(','));
  ctx.io.stdout.write(mcpClientConfig(client, ctx.selfCommand ?? [], args, serverEnv(ctx.env)));
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
      tools: new Set(options.tools ?? TOOL_NAMES),
      service: target.embeddedSandbox ? 'sandbox' : (target.baseUrl ?? target.label),
      quickstartUrl: target.quickstartUrl,
      client: () => Promise.resolve(client),
      // A key no service can know, to see that the service refuses it.
      unauthenticated: () => ctx.clientFor({ ...target, apiKey: unknownApiKey() }, {}, quiet),
      dataDir: dataDir(ctx.env),
      journalsDir: journalsDir(ctx.env),
      signals: ctx.io,
      raise: ctx.io.raise,
      log,
      version: __PETSTORE_VERSION__,
      recordWritesBy: (client) => ctx.recordWritesAs({ via: 'mcp', client }),
      recordRefusal: (refusal) => ctx.recordRefusal(refusal),
    },
    { stdin: ctx.io.stdin, stdout: ctx.io.stdout },
  );
}

export function registerMcp(program: Command, runVerb: RunVerb): void {
  const mcp = declareMcp(program);
  mcp.action((flags) => runVerb(mcp, () => toMcpOptions(flags), runMcp));
}
