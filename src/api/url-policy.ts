import { command, option, phrase } from '../core/phrase.js';
import { UsageError } from '../core/errors.js';
import { maskCredentials } from '../core/redaction/index.js';

const LOOPBACK_HOSTS = new Set(['localhost', '[::1]', '::1']);

export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname) || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/** An absolute http(s) URL, or a usage error naming where the value came from. */
export function parseServiceUrl(value: string, source: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${source} is not a valid URL: "${maskCredentials(value)}"`, {
      hint: 'Use an absolute URL such as https://animal-store.example.com/v1',
    });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UsageError(`${source} must be an http or https URL, got "${url.protocol}"`, {
      hint: 'Use an absolute URL such as https://animal-store.example.com/v1',
    });
  }
  if (url.username || url.password) {
    throw new UsageError(`${source} must not contain credentials`, {
      hint: phrase`Give the URL without user and password; the API key goes to ${command('auth login')} or PETSTORE_API_KEY.`,
    });
  }
  return url;
}

/** Refuses to send a key in cleartext to anything but this machine, unless explicitly allowed. */
export function assertKeySafeToSend(url: URL, allowInsecureHttp: boolean): void {
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname) && !allowInsecureHttp) {
    throw new UsageError(
      `refusing to send the API key over plain http to ${url.host}: anyone on the network could read it`,
      {
        hint: phrase`Use an https:// URL, or pass ${option('allowInsecureHttp')} if you accept the risk.`,
      },
    );
  }
}
