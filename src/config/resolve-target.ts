import type { Context } from '../context.js';
import type { Target } from '../target.js';

/** Foundation resolution: URLs from flags or environment, key from PETSTORE_API_KEY. */
export function resolveTarget(ctx: Context): Promise<Target> {
  const { settings, env } = ctx;
  const apiKey = env.PETSTORE_API_KEY === '' ? undefined : env.PETSTORE_API_KEY;
  return Promise.resolve({
    profile: settings.profile?.name ?? 'default',
    baseUrl: settings.baseUrl,
    quickstartUrl: settings.quickstartUrl,
    apiKey,
    keySource: apiKey === undefined ? 'none' : 'env',
  });
}
