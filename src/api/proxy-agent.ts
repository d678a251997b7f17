import type { Agent, Dispatcher } from 'undici';
import connect from 'undici/lib/api/api-connect.js';
import DispatcherClass from 'undici/lib/dispatcher/dispatcher.js';
import EnvHttpProxyAgentClass from 'undici/lib/dispatcher/env-http-proxy-agent.js';

/**
 * An agent that sends through the proxy HTTP_PROXY or HTTPS_PROXY names, except to the hosts
 * NO_PROXY names. Loaded only when one is set.
 *
 * An https:// request goes through a CONNECT tunnel, which the proxy agent opens with the
 * dispatcher method `connect`. undici's index installs that method on every dispatcher; the
 * transport loads undici's parts on their own, without the index, so it is installed here.
 */
export function proxyAgent(options: Agent.Options): Dispatcher {
  const prototype = DispatcherClass.prototype as { connect?: unknown };
  prototype.connect ??= connect;
  return new EnvHttpProxyAgentClass(options);
}
