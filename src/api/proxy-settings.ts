import { UsageError } from '../core/errors.js';
import type { Env } from '../core/io.js';
import { maskCredentials } from '../core/redaction/index.js';

/** The proxies the environment names, checked: what the transport sends through. */
export interface ProxySettings {
  /** For http:// targets (HTTP_PROXY), and https:// ones when HTTPS_PROXY is not set. */
  http?: string | undefined;
  /** For https:// targets (HTTPS_PROXY). */
  https?: string | undefined;
  /** Hosts never proxied (NO_PROXY), as given. */
  noProxy?: string | undefined;
  /** The variables that set `http` and `https`, as spelled in the environment, for messages. */
  httpVariable?: string | undefined;
  httpsVariable?: string | undefined;
}

/** The proxy a request to this URL goes through, and the variable that named it, if any. */
export function proxyFor(
  proxy: ProxySettings,
  url: URL,
): { url: string; variable: string } | undefined {
  if (url.protocol === 'https:' && proxy.https !== undefined) {
    return { url: proxy.https, variable: proxy.httpsVariable ?? 'HTTPS_PROXY' };
  }
  if (proxy.http === undefined) return undefined;
  return { url: proxy.http, variable: proxy.httpVariable ?? 'HTTP_PROXY' };
}

/**
 * Whether NO_PROXY names this URL's host, by the rules undici's EnvHttpProxyAgent applies (so
 * messages say what it did): entries split at commas and blanks; `*` is every host; `name`
 * and `.name` are that host and every host under it, `*.name` only those under it; an entry
 * may carry a `:port`; letter case and a trailing dot do not count.
 */
export function bypassesProxy(proxy: ProxySettings, url: URL): boolean {
  const entries = (proxy.noProxy ?? '').split(/[,\s]/).filter(Boolean);
  const host = url.hostname
    .replace(/^\[(.+)\]$/, '$1')
    .toLowerCase()
    .replace(/(.)\.$/, '$1');
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  return entries.some((entry) => {
    const bracketed = /^\[(.+)\]:(\d+)$/.exec(entry);
    const plain = entry.replace(/^\[(.+)\]$/, '$1');
    const withPort = (plain.match(/:/g) ?? []).length === 1 ? /^(.+):(\d+)$/.exec(plain) : null;
    const [name, entryPort] = bracketed
      ? [bracketed[1]!, bracketed[2]]
      : withPort
        ? [withPort[1]!, withPort[2]]
        : [plain, undefined];
    if (entryPort !== undefined && Number(entryPort) !== port) return false;
    if (name === '*') return true;
    const wildcard = entry.startsWith('*');
    const wanted = name
      .replace(/^\*?\./, '')
      .replace(/^(.+)\.$/, '$1')
      .toLowerCase();
    return (!wildcard && host === wanted) || host.endsWith(`.${wanted}`);
  });
}

const PROTOCOLS = new Set(['http:', 'https:', 'socks5:', 'socks:']);

/** The variable's value, lower case first as curl and undici read them; blank is unset. */
function variable(env: Env, name: string): { name: string; value: string } | undefined {
  for (const candidate of [name.toLowerCase(), name]) {
    const value = env[candidate]?.trim();
    if (value) return { name: candidate, value };
  }
  return undefined;
}

function badProxy(name: string, value: string, why: string): UsageError {
  return new UsageError(`${name} is not a usable proxy: ${why} (${maskCredentials(value)})`, {
    hint: `Set ${name} to http://[NAME:SECRET@]host:port (percent-encode the secret), or unset it.`,
  });
}

function checked(found: { name: string; value: string } | undefined): string | undefined {
  if (!found) return undefined;
  const { name, value } = found;
  if (!value.includes('://')) throw badProxy(name, value, 'it has no scheme (http://)');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw badProxy(name, value, 'not a URL (a port is 1 to 65535, an IPv6 host in [ ])');
  }
  if (!PROTOCOLS.has(url.protocol)) {
    throw badProxy(
      name,
      value,
      `${url.protocol.slice(0, -1)}:// is not a proxy scheme (http, https, socks5)`,
    );
  }
  if (url.hostname === '') throw badProxy(name, value, 'it names no host');
  // A proxy is a host and a port: undici refuses anything more, as "invalid url", deep inside.
  if ((url.pathname !== '/' && url.pathname !== '') || /[?#\\]/.test(value)) {
    throw badProxy(name, value, 'a proxy URL has no path, query or fragment');
  }
  try {
    decodeURIComponent(url.username);
    decodeURIComponent(url.password);
  } catch {
    throw badProxy(name, value, 'its user or password is not valid percent-encoding');
  }
  return url.href;
}

/**
 * HTTP_PROXY, HTTPS_PROXY and NO_PROXY (either case) as the transport uses them. A value that
 * is no proxy URL is refused here, naming the variable (its password masked), before anything
 * is sent: undici would throw "Invalid URL" from deep inside, a bug to the user.
 */
export function proxySettingsFromEnv(env: Env): ProxySettings {
  const httpVariable = variable(env, 'HTTP_PROXY');
  const httpsVariable = variable(env, 'HTTPS_PROXY');
  const http = checked(httpVariable);
  const https = checked(httpsVariable);
  if (http === undefined && https === undefined) return {};
  return {
    http,
    https,
    noProxy: variable(env, 'NO_PROXY')?.value,
    ...(httpVariable && { httpVariable: httpVariable.name }),
    ...(httpsVariable && { httpsVariable: httpsVariable.name }),
  };
}

/**
 * The passwords the proxy URLs hold, as written and decoded, and the credentials as they go in
 * a Proxy-Authorization header (base64 of user:password), which a proxy may echo back.
 */
export function proxyPasswords(proxy: ProxySettings): string[] {
  return [proxy.http, proxy.https].flatMap((href) => {
    if (href === undefined) return [];
    const { username, password } = new URL(href);
    if (password === '') return [];
    const basic = `${decodeURIComponent(username)}:${decodeURIComponent(password)}`;
    return [password, decodeURIComponent(password), Buffer.from(basic).toString('base64')];
  });
}
