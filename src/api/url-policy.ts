import { UsageError } from '../core/errors.js';

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
    throw new UsageError(`${source} must be an http or https URL, got "${url.protocol}"`);
  }
  if (url.username || url.password) {
    throw new UsageError(`${source} must not contain credentials`);
  }
  return url;
}

/** Refuses to send a key in cleartext to anything but this machine, unless explicitly allowed. */
export function assertKeySafeToSend(url: URL, allowInsecureHttp: boolean): void {
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname) && !allowInsecureHttp) {
    throw new UsageError(
      `refusing to send the API key over plain http to ${url.host}: anyone on the network could read it`,
      { hint: 'Use an https:// URL, or pass --allow-insecure-http if you accept the risk.' },
    );
  }
}

/**
 * A URL (or what was meant as one) as text with its credentials masked, `scheme://****@host`:
 * everything between the scheme and the last "@", whatever it holds (an unencoded "/", "#" or
 * "?" in a password makes the value no URL, and a token alone, with no ":", is a secret too).
 */
export function maskCredentials(value: string): string {
  const start = value.indexOf('://');
  const at = value.lastIndexOf('@');
  if (start === -1 || at <= start + 3) return value;
  return `${value.slice(0, start + 3)}****${value.slice(at)}`;
}
