import { PetstoreClient, type ClientSettings, type KeyedTarget } from './client.js';
import { assertKeySafeToSend, parseServiceUrl } from './url-policy.js';

export type { ClientSettings, ServiceTarget } from './client.js';

export type ClientFactory = (
  target: KeyedTarget,
  settings: ClientSettings,
) => PetstoreClient | Promise<PetstoreClient>;

/**
 * A client for the target, after the check every request depends on: the URLs are ones the
 * key may be sent to. (That there is a key, the type says: the context checks it, once.)
 */
export function createClient(target: KeyedTarget, settings: ClientSettings): PetstoreClient {
  for (const [value, what] of [
    [target.baseUrl, 'the base URL'],
    [target.quickstartUrl, 'the quickstart URL'],
  ] as const) {
    if (value !== undefined) {
      assertKeySafeToSend(parseServiceUrl(value, what), settings.allowInsecureHttp === true);
    }
  }
  return new PetstoreClient({ ...target, ...settings });
}
