import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import type { Target } from '../target.js';

/** Foundation resolution: URLs from flags or environment, key from PETSTORE_API_KEY. */
export function resolveTarget(ctx: Context): Promise<Target> {
  const { settings, env } = ctx;
  if (settings.baseUrl === undefined) {
    return Promise.reject(
      new UsageError('no service URL configured', {
        hint: 'Pass --base-url URL or set PETSTORE_BASE_URL (it ends with /v1).',
      }),
    );
  }
  const apiKey = env.PETSTORE_API_KEY === '' ? undefined : env.PETSTORE_API_KEY;
  return Promise.resolve({
    profile: settings.profile?.name ?? 'default',
    baseUrl: settings.baseUrl,
    quickstartUrl: settings.quickstartUrl,
    apiKey,
    keySource: apiKey === undefined ? 'none' : 'env',
  });
}
