import type { Command } from 'commander';
import { changeConfig } from '../config-change.js';
import type { RunVerb } from '../../cmdutil/run-verb.js';
import { environmentKey, maskKey, SANDBOX_PROFILE } from '../../config/profiles.js';
import type { Context } from '../../context/context.js';
import { apiKeyProblem } from '../../core/api-key.js';
import { UsageError } from '../../core/errors.js';
import { selectedProfileName } from './selected-profile.js';

async function readKey(ctx: Context, profile: string): Promise<string> {
  const { readFirstLine, readHidden } = await import('../../output/prompt.js');
  const key = ctx.io.stdinIsTTY
    ? (await readHidden(ctx.io, `API key for profile ${profile} (input hidden): `)).trim()
    : await readFirstLine(ctx.io.stdin);
  if (key === '') {
    throw new UsageError('no API key was given', {
      hint: 'Type it at the prompt, or pipe it in: printf "%s\\n" "$KEY" | petstore auth login',
    });
  }
  const problem = apiKeyProblem(key);
  if (problem) {
    throw new UsageError(`that API key cannot be used: ${problem}`, {
      hint: 'Copy the key again, without quotes or spaces; nothing was stored.',
    });
  }
  return key;
}

export interface AuthLoginOptions {
  /** Check the key with GET /pets?limit=1 before storing it. */
  verify: boolean;
  /** Show what would be stored (key masked); send nothing, write nothing. */
  dryRun: boolean;
}

export async function runAuthLogin(ctx: Context, options: AuthLoginOptions): Promise<void> {
  const profile = await selectedProfileName(ctx);
  if (profile === SANDBOX_PROFILE) {
    throw new UsageError('the sandbox profile needs no API key', {
      hint: 'Choose the profile to log in to: petstore auth login --profile staging',
    });
  }
  const key = await readKey(ctx, profile);
  ctx.protectSecret(key);
  if (options.verify && !options.dryRun) {
    const target = await ctx.target();
    const client = await ctx.clientFor({ ...target, apiKey: key, keySource: 'config' });
    await client.listPets({ limit: 1 });
  }
  const store = await ctx.config();
  let replaced: string | undefined;
  const changed = await changeConfig(ctx, options.dryRun, (data) => {
    const record = (data.profiles[profile] ??= {});
    if (record.apiKey !== undefined && record.apiKey !== key) replaced = maskKey(record.apiKey);
    record.apiKey = key;
  });
  if (!changed) return;
  const verified = options.verify ? 'verified and stored' : 'stored (not verified)';
  ctx.notice(`API key ${maskKey(key)} ${verified} for profile ${profile} in ${store.path}.`);
  if (replaced) ctx.notice(`It replaces the previous key ${replaced}.`);
  if (environmentKey(ctx.env)) {
    ctx.notice('PETSTORE_API_KEY is set: while it is, it overrides this stored key.');
  }
}

export function registerAuthLogin(auth: Command, runVerb: RunVerb): void {
  auth
    .command('login')
    .description('Store an API key for a profile (read hidden on a terminal, else from stdin)')
    .option('--no-verify', 'store the key without checking it with GET /pets?limit=1')
    .option('--dry-run', 'show what would be stored (key masked); check nothing, write nothing')
    .addHelpText(
      'after',
      `
The key is never taken from the command line. It is checked against the service before it is
stored; a 401 stores nothing and exits 3.

Examples:
  $ petstore auth login --profile staging
  $ printf '%s\\n' "$STAGING_KEY" | petstore auth login --profile staging`,
    )
    .action((flags: { verify: boolean; dryRun?: boolean }, command: Command) =>
      runVerb(
        command,
        () => ({ verify: flags.verify, dryRun: flags.dryRun === true }),
        runAuthLogin,
      ),
    );
}
