import { command, phrase } from '../core/phrase.js';
import { sandboxDatabaseFile } from '../config/paths.js';
import {
  environmentKey,
  isEmbeddedProfile,
  selectProfile,
  storedProfile,
} from '../config/profiles.js';
import { KeyringUnavailableError } from '../config/keyring.js';
import { MissingCredentialError } from '../core/errors.js';
import type { Context } from './context.js';
import { servesEmbeddedSandbox } from './embedded-sandbox.js';
import type { Target } from './target.js';

/**
 * Where a command sends its requests: flag > environment > stored profile > built-in default,
 * for the profile, the URLs and the key. The sandbox profile starts the embedded service.
 */
export async function resolveTarget(ctx: Context): Promise<Target> {
  const { settings } = ctx;
  const data = await (await ctx.config()).read();
  const selection = selectProfile(settings.profile, data);
  const stored = storedProfile(data, selection.name);
  const envKey = environmentKey(ctx.env);

  if (servesEmbeddedSandbox(selection.name, settings)) {
    if (selection.source === 'default') {
      ctx.notice('note: using the local sandbox (no profile chosen: petstore profile use NAME)');
    }
    const { launchSandbox } = await import('../sandbox/launcher.js');
    // A key in the environment (a CI job's, for another profile) is accepted by the local
    // sandbox too, rather than refused with 401 for a service that has no real keys.
    const sandbox = await launchSandbox({
      databaseFile: sandboxDatabaseFile(ctx.env),
      acceptKey: envKey,
    });
    return {
      profile: selection.name,
      label: `profile ${selection.name}`,
      baseUrlOverridden: false,
      reachedWith: selection.source === 'default' ? [] : ['--profile', selection.name],
      embeddedSandbox: true,
      urlsSettable: false,
      baseUrl: sandbox.baseUrl,
      quickstartUrl: settings.quickstartUrl ?? sandbox.quickstartUrl,
      apiKey: envKey ?? sandbox.apiKey,
      socketPath: sandbox.socketPath,
      keySource: envKey ? 'env' : 'sandbox',
      close: sandbox.close,
    };
  }

  const inKeyring = envKey === undefined && stored.keyStore === 'keyring';
  const apiKey = envKey ?? (inKeyring ? await keyFromKeyring(ctx, selection.name) : stored.apiKey);
  const overridden = settings.baseUrl !== undefined;
  // A URL given without choosing a profile is the target itself: the profile that happens to
  // be active only lends its key, if it has one.
  const chosen = selection.source === 'flag' || selection.source === 'env';
  const label =
    settings.baseUrl === undefined
      ? `profile ${selection.name}`
      : chosen
        ? `${settings.baseUrl} (profile ${selection.name})`
        : settings.baseUrl;
  return {
    profile: selection.name,
    label,
    baseUrlOverridden: overridden,
    // The profile, unless only lending its key to a URL given alone; then the URL.
    reachedWith: [
      ...(settings.baseUrl === undefined || chosen ? ['--profile', selection.name] : []),
      ...(settings.baseUrl === undefined ? [] : ['--base-url', settings.baseUrl]),
    ],
    embeddedSandbox: false,
    urlsSettable: !isEmbeddedProfile(selection.name),
    baseUrl: settings.baseUrl ?? stored.baseUrl,
    quickstartUrl: settings.quickstartUrl ?? stored.quickstartUrl,
    apiKey,
    keySource: envKey ? 'env' : inKeyring ? 'keyring' : stored.apiKey ? 'config' : 'none',
  };
}

/** The profile's key from the OS keyring; a keyring that is gone or silent is said plainly. */
async function keyFromKeyring(ctx: Context, profile: string): Promise<string> {
  let key: string | undefined;
  try {
    key = await ctx.keyring().get(profile);
  } catch (error) {
    if (!(error instanceof KeyringUnavailableError)) throw error;
    throw new MissingCredentialError(
      `the key of profile ${profile} is in the OS keyring, which cannot be used: ${error.reason}`,
      {
        hint: phrase`Unlock or start the keyring (Secret Service, Keychain, Credential Manager), or set PETSTORE_API_KEY, or store the key in the config file: ${command('auth login', { profile, insecureStorage: '' })}`,
      },
    );
  }
  if (key === undefined) {
    throw new MissingCredentialError(
      `the OS keyring holds no key for profile ${profile} (it was removed outside petstore)`,
      { hint: phrase`Store it again: ${command('auth login', { profile })}` },
    );
  }
  return key;
}
