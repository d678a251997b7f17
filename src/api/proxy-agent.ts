import type { Agent, Dispatcher } from 'undici';
import connect from 'undici/lib/api/api-connect.js';
import DispatcherClass from 'undici/lib/dispatcher/dispatcher.js';
import EnvHttpProxyAgentClass from 'undici/lib/dispatcher/env-http-proxy-agent.js';
import type { ProxySettings } from './proxy-settings.js';

/**
 * An agent that sends through the proxy HTTP_PROXY or HTTPS_PROXY names, except to the hosts
 * NO_PROXY names. Loaded only when one is set.
 *
 * An https:// request goes through a CONNECT tunnel, which the proxy agent opens with the
 * dispatcher method `connect`. undici's index installs that method on every dispatcher; the
 * transport loads undici's parts on their own, without the index, so it is installed here.
 */
export function proxyAgent(options: Agent.Options, proxy: ProxySettings): Dispatcher {
  const prototype = DispatcherClass.prototype as { connect?: unknown };
  prototype.connect ??= connect;
  if ([proxy.http, proxy.https].some((url) => url?.startsWith('socks'))) quietSocksWarning();
  return new EnvHttpProxyAgentClass({
    ...options,
    // Given, not read from process.env: the run's environment, checked (proxySettingsFromEnv).
    httpProxy: proxy.http ?? '',
    httpsProxy: proxy.https ?? proxy.http ?? '',
    noProxy: proxy.noProxy ?? '',
  });
}

/**
 * undici warns once that its SOCKS5 support is experimental, on the first request: a line
 * about undici's internals on the user's terminal. That one warning is dropped.
 */
function quietSocksWarning(): void {
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const emitWarning = process.emitWarning;
  process.emitWarning = function (warning: string | Error, ...rest: unknown[]) {
    if (String(warning).includes('SOCKS5 proxy support is experimental')) return;
    Reflect.apply(emitWarning, process, [warning, ...rest]);
  };
}
