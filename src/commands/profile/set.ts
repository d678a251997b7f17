import { DRY_RUN, dryRunOption } from '../../cmdutil/options.js';
import { Option, type Command } from '@commander-js/extra-typings';
import { helpProse } from '../../cmdutil/help-text.js';
import { isLoopbackHost, parseServiceUrl } from '../../api/url-policy.js';
import { changeConfig } from '../../cmdutil/config-change.js';
import type { RunVerb } from '../../cmdutil/run-verb.js';
import {
  agentWritesOf,
  isBuiltInProfile,
  isEmbeddedProfile,
  validateProfileName,
} from '../../config/profiles.js';
import { AGENT_WRITES, type AgentWrites } from '../../config/schema.js';
import type { RunOutput, RunServices } from '../../context/context.js';
import { UsageError } from '../../core/errors.js';

export interface ProfileSetOptions {
  name: string;
  baseUrl?: string | undefined;
  quickstartUrl?: string | undefined;
  /** --agent-writes: what petstore mcp may write through the profile. */
  agentWrites?: AgentWrites | undefined;
  dryRun: boolean;
}

function checkUrl(ctx: RunOutput, value: string, flag: string): string {
  const url = parseServiceUrl(value, flag);
  if (flag === '--base-url' && !/\/v1\/?$/.test(url.pathname)) {
    ctx.warn(`the base URL path "${url.pathname}" does not end with /v1, as the service's do`);
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    ctx.warn(`${flag} is plain http: commands will need --allow-insecure-http to send the key`);
  }
  return value;
}

export async function runProfileSet(
  ctx: RunOutput & RunServices,
  options: ProfileSetOptions,
): Promise<void> {
  const name = validateProfileName(options.name);
  const urls = options.baseUrl !== undefined || options.quickstartUrl !== undefined;
  if (isEmbeddedProfile(name) && urls) {
    throw new UsageError(
      'the sandbox profile is the embedded local service; it has no URLs to set',
      {
        hint: 'Create a profile of your own instead: petstore profile set NAME --base-url URL',
      },
    );
  }
  if (!urls && options.agentWrites === undefined) {
    throw new UsageError('profile set needs --base-url, --quickstart-url or --agent-writes', {
      hint: `Example: petstore profile set ${name} --base-url https://animal-store.example.com/v1`,
    });
  }
  const baseUrl =
    options.baseUrl === undefined ? undefined : checkUrl(ctx, options.baseUrl, '--base-url');
  const quickstartUrl =
    options.quickstartUrl === undefined
      ? undefined
      : checkUrl(ctx, options.quickstartUrl, '--quickstart-url');
  const changes: string[] = [];
  const changed = await changeConfig(ctx, options.dryRun, (data) => {
    const existing = data.profiles[name];
    if (!existing && !isBuiltInProfile(name) && baseUrl === undefined) {
      throw new UsageError(`a new profile needs --base-url`, {
        hint: `Example: petstore profile set ${name} --base-url https://animal-store.example.com/v1`,
      });
    }
    const profile = existing ?? {};
    if (baseUrl !== undefined) {
      if (profile.baseUrl && profile.baseUrl !== baseUrl) {
        changes.push(`base URL changed from ${profile.baseUrl} to ${baseUrl}`);
      }
      profile.baseUrl = baseUrl;
    }
    if (quickstartUrl !== undefined) {
      if (profile.quickstartUrl && profile.quickstartUrl !== quickstartUrl) {
        changes.push(`quickstart URL changed from ${profile.quickstartUrl} to ${quickstartUrl}`);
      }
      profile.quickstartUrl = quickstartUrl;
    }
    if (options.agentWrites !== undefined) {
      const before = agentWritesOf(data, name);
      // A profile new now had no policy of its own to change: its is set.
      if (existing === undefined && !isBuiltInProfile(name)) {
        changes.push(`agent writes set to ${options.agentWrites}`);
      } else if (before !== options.agentWrites) {
        changes.push(`agent writes changed from ${before} to ${options.agentWrites}`);
      }
      profile.agentWrites = options.agentWrites;
    }
    data.profiles[name] = profile;
  });
  if (!changed) return;
  for (const change of changes) ctx.notice(`Profile ${name}: ${change}.`);
  ctx.notice(`Saved profile ${name}.`);
}

export function registerProfileSet(profile: Command, runVerb: RunVerb): void {
  profile
    .command('set')
    .description('Create a profile or change its URLs')
    .argument('<NAME>', 'profile name')
    // Named like the global --base-url / --quickstart-url and read from the merged options.
    .addOption(
      new Option(
        '--agent-writes <policy>',
        'what petstore mcp --allow-writes may write here: allow, confirm (ask the person) or deny',
      ).choices(AGENT_WRITES),
    )
    .addOption(dryRunOption(DRY_RUN.config))
    .addHelpText(
      'after',
      helpProse(`
Uses the global --base-url URL and --quickstart-url URL options.

Examples:
  $ petstore profile set staging --base-url https://staging.animal-store.example.com/v1
  $ petstore profile set qa --base-url https://qa.example.com/v1 --quickstart-url https://qa.example.com/quickstart
  $ petstore profile set staging --agent-writes allow

--agent-writes (default: deny for production, confirm for every other profile) is what an
agent may write through petstore mcp --allow-writes: allow sends its writes, confirm asks the
person first (showing the request and its Idempotency-Key), deny refuses them.`),
    )
    .action((name, own, command) =>
      runVerb(
        command,
        () => {
          // The global options, as parsed (their own declaration is in context/global-options.ts).
          const flags = command.optsWithGlobals() as { baseUrl?: string; quickstartUrl?: string };
          return {
            name,
            baseUrl: flags.baseUrl,
            quickstartUrl: flags.quickstartUrl,
            agentWrites: own.agentWrites,
            dryRun: own.dryRun === true,
          };
        },
        runProfileSet,
      ),
    );
}
