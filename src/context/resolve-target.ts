import { sandboxDatabaseFile } from '../config/paths.js';
import {
  environmentKey,
  SANDBOX_PROFILE,
  selectProfile,
  storedProfile,
} from '../config/profiles.js';
import type { Context } from './context.js';
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

  if (selection.name === SANDBOX_PROFILE && settings.baseUrl === undefined) {
    if (selection.source === 'default') {
      ctx.notice(
        'note: using the local sandbox profile (no profile chosen; pick one with: petstore profile use NAME)',
      );
    }
    const { launchSandbox } = await import('../sandbox/launcher.js');
    const sandbox = await launchSandbox({ databaseFile: sandboxDatabaseFile(ctx.env) });
    return {
      profile: SANDBOX_PROFILE,
      label: `profile ${SANDBOX_PROFILE}`,
      baseUrlOverridden: false,
      baseUrl: sandbox.baseUrl,
      quickstartUrl: settings.quickstartUrl ?? sandbox.quickstartUrl,
      apiKey: envKey ?? sandbox.apiKey,
      keySource: envKey ? 'env' : 'sandbox',
      close: sandbox.close,
    };
  }

  const apiKey = envKey ?? stored.apiKey;
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
    baseUrl: settings.baseUrl ?? stored.baseUrl,
    quickstartUrl: settings.quickstartUrl ?? stored.quickstartUrl,
    apiKey,
    keySource: envKey ? 'env' : stored.apiKey ? 'config' : 'none',
  };
}
