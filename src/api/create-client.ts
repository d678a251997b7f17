import { MissingCredentialError } from '../core/errors.js';
import { PetstoreClient, type ClientOptions } from './client.js';
import { assertKeySafeToSend, parseServiceUrl } from './url-policy.js';

/** Where a client sends its requests, and with which key. */
export interface ServiceTarget {
  profile: string;
  baseUrl: string | undefined;
  quickstartUrl: string | undefined;
  apiKey: string | undefined;
  /** A local socket the base URL's origin is reached through (the embedded sandbox). */
  socketPath?: string | undefined;
}

/** Everything about a client but its target. */
export type ClientSettings = Omit<
  ClientOptions,
  'profile' | 'baseUrl' | 'quickstartUrl' | 'apiKey' | 'socketPath'
> & {
  allowInsecureHttp: boolean;
};

export type ClientFactory = (
  target: ServiceTarget,
  settings: ClientSettings,
) => PetstoreClient | Promise<PetstoreClient>;

/**
 * A client for the target, after the checks every request depends on: a key exists, and the
 * URLs are ones the key may be sent to.
 */
export function createClient(target: ServiceTarget, settings: ClientSettings): PetstoreClient {
  const { apiKey } = target;
  if (apiKey === undefined) {
    // The context says which key is missing and how to give one; this is the last guard.
    throw new MissingCredentialError(`no API key for ${target.baseUrl ?? target.profile}`);
  }
  for (const [value, what] of [
    [target.baseUrl, 'the base URL'],
    [target.quickstartUrl, 'the quickstart URL'],
  ] as const) {
    if (value !== undefined) {
      assertKeySafeToSend(parseServiceUrl(value, what), settings.allowInsecureHttp);
    }
  }
  return new PetstoreClient({
    timeoutSeconds: settings.timeoutSeconds,
    retries: settings.retries,
    userAgent: settings.userAgent,
    log: settings.log,
    transport: settings.transport,
    onDeprecation: settings.onDeprecation,
    redact: settings.redact,
    sleep: settings.sleep,
    random: settings.random,
    now: settings.now,
    profile: target.profile,
    baseUrl: target.baseUrl,
    quickstartUrl: target.quickstartUrl,
    apiKey,
    socketPath: target.socketPath,
  });
}
