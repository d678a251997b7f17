import { DRY_RUN, dryRunOption } from '../../cmdutil/options.js';
import type { Command } from '@commander-js/extra-typings';
import { helpProse } from '../../cmdutil/help-text.js';
import { changeConfig } from '../../cmdutil/config-change.js';
import type { RunVerb } from '../../cmdutil/run-verb.js';
import {
  KEYRING_TIMEOUT_MS,
  KeyringUnavailableError,
  NO_SESSION_BUS,
} from '../../config/keyring.js';
import {
  environmentKey,
  isEmbeddedProfile,
  maskKey,
  storedProfile,
} from '../../config/profiles.js';
import type { ConfigData } from '../../config/schema.js';
import type { RunOutput, RunServices, RunState } from '../../context/context.js';
import { apiKeyProblem } from '../../core/api-key.js';
import { ConfigError, UsageError } from '../../core/errors.js';
import { forgetKeyringEntry } from '../../cmdutil/forget-keyring-entry.js';
import { selectedProfileName } from './selected-profile.js';

async function readKey(ctx: RunOutput, profile: string): Promise<string> {
  const { readFirstLine, readHidden } = await import('../../output/prompt.js');
  if (ctx.io.stdinIsTTY && !ctx.settings.prompts) {
    throw new UsageError('no API key was given, and petstore may not ask for one here', {
      hint: `Pipe it in: printf "%s\\n" "$KEY" | petstore auth login --profile ${profile} (or leave out --no-input, PETSTORE_NO_INPUT and CI at a terminal)`,
    });
  }
  const key = ctx.io.stdinIsTTY
    ? (await readHidden(ctx.io, `API key for profile ${profile} (input hidden): `)).trim()
    : await readFirstLine(ctx.io.stdin);
  if (key === '') {
    throw new UsageError('no API key was given', {
      hint: `Type it at the prompt, or pipe it in: printf "%s\\n" "$KEY" | petstore auth login --profile ${profile}`,
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
  /** Keep the key in the config file (0600), not in the OS keyring. */
  insecureStorage: boolean;
  /** Move the key the config file holds for the profile into the OS keyring. */
  migrate: boolean;
}

/** Where a stored key ended up, as the notices name it. */
type Destination = { kind: 'keyring' } | { kind: 'file'; path: string };

export async function runAuthLogin(
  ctx: RunOutput & RunServices & RunState,
  options: AuthLoginOptions,
): Promise<void> {
  const profile = await selectedProfileName(ctx);
  if (isEmbeddedProfile(profile)) {
    throw new UsageError('the sandbox profile needs no API key', {
      hint: 'Choose the profile to log in to: petstore auth login --profile staging',
    });
  }
  if (options.migrate && options.insecureStorage) {
    throw new UsageError(
      '--migrate moves a key into the OS keyring; --insecure-storage keeps it out',
      {
        hint: 'Give one of them.',
      },
    );
  }
  const store = await ctx.config();
  const before = storedProfile(await store.read(), profile);
  const key = options.migrate
    ? fileKeyToMigrate(before.apiKey, profile)
    : await readKey(ctx, profile);
  ctx.protectSecret(key);
  if (options.verify && !options.dryRun && !options.migrate) {
    const target = await ctx.target();
    const client = await ctx.clientFor({ ...target, apiKey: key, keySource: 'config' });
    await client.listPets({ limit: 1 });
  }
  if (options.dryRun) {
    // Nothing is sent to the keyring either: the change shown is the one made if it answers.
    await changeConfig(ctx, true, (data) => placeKey(data, profile, key, !options.insecureStorage));
    if (!options.insecureStorage) {
      ctx.notice('The key would go to the OS keyring, or to this file if no keyring answered.');
    }
    return;
  }
  const destination = await storeKey(ctx, profile, key, options, before.keyStore === 'keyring');
  let replaced: string | undefined;
  if (before.apiKey !== undefined && before.apiKey !== key) replaced = maskKey(before.apiKey);
  const verified = options.migrate
    ? 'moved from the config file'
    : options.verify
      ? 'verified and stored'
      : 'stored (not verified)';
  const where =
    destination.kind === 'keyring' ? 'the OS keyring' : `${destination.path} (mode 0600)`;
  ctx.notice(`API key ${maskKey(key)} ${verified} for profile ${profile} in ${where}.`);
  if (replaced) ctx.notice(`It replaces the previous key ${replaced}.`);
  if (environmentKey(ctx.env)) {
    ctx.notice('PETSTORE_API_KEY is set: while it is, it overrides this stored key.');
  }
}

function fileKeyToMigrate(fileKey: string | undefined, profile: string): string {
  if (fileKey === undefined) {
    throw new UsageError(`profile ${profile} has no key in the config file to move`, {
      hint: `See where its key lives: petstore auth status --profile ${profile}`,
    });
  }
  return fileKey;
}

/** The config change for a key: a keyring marker, or the key itself in the file. */
function placeKey(data: ConfigData, profile: string, key: string, inKeyring: boolean): void {
  const record = (data.profiles[profile] ??= {});
  if (inKeyring) {
    record.keyStore = 'keyring';
    delete record.apiKey;
  } else {
    record.apiKey = key;
    delete record.keyStore;
  }
}

/**
 * Stores the key in the OS keyring when one answers in time, else (with a warning naming the
 * reason) in the config file; --insecure-storage goes straight to the file. The file never
 * keeps a copy of a key the keyring holds, and a keyring entry the file replaces is removed.
 */
async function storeKey(
  ctx: RunOutput & RunServices & RunState,
  profile: string,
  key: string,
  options: AuthLoginOptions,
  hadKeyringEntry: boolean,
): Promise<Destination> {
  const store = await ctx.config();
  if (!options.insecureStorage) {
    try {
      await ctx.keyring().set(profile, key);
      await store.update((data) => placeKey(data, profile, key, true));
      return { kind: 'keyring' };
    } catch (error) {
      if (!(error instanceof KeyringUnavailableError)) throw error;
      if (options.migrate) {
        throw new ConfigError(
          `the key of profile ${profile} stays in the config file: ${error.message}`,
          store.path,
          {
            hint: 'Start or unlock the keyring (Secret Service, Keychain, Credential Manager) and run this again.',
          },
        );
      }
      if (error.reason === NO_SESSION_BUS) {
        // A machine with no desktop session (a server, CI): no keyring is what it has, not a fault.
        ctx.notice(
          `No OS keyring here (${NO_SESSION_BUS}): the key goes to ${store.path} (mode 0600).`,
        );
      } else {
        ctx.warn(
          `${error.message}; the key goes to ${store.path} (mode 0600) instead. Use --insecure-storage to choose the file without trying the keyring.`,
        );
      }
    }
  }
  await store.update((data) => placeKey(data, profile, key, false));
  if (hadKeyringEntry) await forgetKeyringEntry(ctx, profile);
  return { kind: 'file', path: store.path };
}

export function registerAuthLogin(auth: Command, runVerb: RunVerb): void {
  auth
    .command('login')
    .description('Store an API key for a profile (read hidden on a terminal, else from stdin)')
    .option('--no-verify', 'store the key without checking it with GET /pets?limit=1')
    .addOption(dryRunOption(DRY_RUN.login))
    .option('--insecure-storage', 'keep the key in the config file (0600), not the OS keyring')
    .option('--migrate', "move the profile's key from the config file into the OS keyring")
    .addHelpText(
      'after',
      helpProse(`
The key is never taken from the command line. It is checked against the service before it is
stored; a 401 stores nothing and exits 3. It goes to the OS keyring (Secret Service, Keychain,
Credential Manager) when one answers within ${KEYRING_TIMEOUT_MS / 1000} s, else to the config file (mode 0600) with a
warning saying why.

Examples:
  $ petstore auth login --profile staging
  $ printf '%s\\n' "$STAGING_KEY" | petstore auth login --profile staging
  $ petstore auth login --profile staging --migrate`),
    )
    .action((flags, command) =>
      runVerb(
        command,
        () => ({
          verify: flags.verify,
          dryRun: flags.dryRun === true,
          insecureStorage: flags.insecureStorage === true,
          migrate: flags.migrate === true,
        }),
        runAuthLogin,
      ),
    );
}
