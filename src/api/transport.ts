import type { Dispatcher } from 'undici';
import AgentClass from 'undici/lib/dispatcher/agent.js';
import type { HttpRequest, HttpResponse, Transport } from './http.js';
import { ProtocolError, UsageError } from '../core/errors.js';
import { deadlineError, deadlineSeconds, errorCode, toNetworkError } from './network-errors.js';
import { isLoopbackHost } from './url-policy.js';
import { BodyTooLarge, DeadlinePassed, exchangeText } from './text-exchange.js';

const MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

function flattenHeaders(headers: Record<string, string | string[] | undefined>) {
  const flat: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(headers)) {
    flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

/** The agents of one timeout: direct, and through the proxy when the environment names one. */
interface Agents {
  direct: Dispatcher;
  proxied: Dispatcher | undefined;
}

/**
 * Keep-alive agents shared by every client in the process, one set per timeout (an agent fixes
 * its connect timeout when it is made), each closed with the last client that uses it.
 */
const sharedAgents = new Map<number, { agents: Promise<Agents>; users: number }>();

const PROXY_VARIABLES = ['HTTP_PROXY', 'http_proxy', 'HTTPS_PROXY', 'https_proxy'];

function agentOptions(timeoutMs: number) {
  return {
    connect: { timeout: timeoutMs },
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    maxResponseSize: MAX_RESPONSE_BYTES,
  };
}

async function makeAgents(timeoutMs: number): Promise<Agents> {
  const options = agentOptions(timeoutMs);
  const direct = new AgentClass(options);
  // The proxy-aware agent looks at the proxy variables on every request; with none set, the
  // plain agent does the same work without that cost (or loading it).
  if (!PROXY_VARIABLES.some((name) => process.env[name])) return { direct, proxied: undefined };
  const { proxyAgent } = await import('./proxy-agent.js');
  return { direct, proxied: proxyAgent(options) };
}

function acquireAgents(timeoutMs: number): Promise<Agents> {
  let entry = sharedAgents.get(timeoutMs);
  if (!entry) {
    entry = { agents: makeAgents(timeoutMs), users: 0 };
    sharedAgents.set(timeoutMs, entry);
  }
  entry.users++;
  return entry.agents;
}

async function releaseAgents(timeoutMs: number): Promise<void> {
  const entry = sharedAgents.get(timeoutMs);
  if (!entry || --entry.users > 0) return;
  sharedAgents.delete(timeoutMs);
  const { direct, proxied } = await entry.agents;
  await Promise.all([direct.close(), proxied?.close()]);
}

/** A response petstore will not read; fetching it again would not make it smaller. */
function tooLarge(req: HttpRequest, status: number): ProtocolError {
  return new ProtocolError(
    status,
    `the response to ${req.method} ${req.url.pathname} is larger than ${MAX_RESPONSE_BYTES / 1024 / 1024} MiB, more than petstore reads`,
    { hint: 'Ask for less, e.g. with --limit.' },
  );
}

/**
 * Sends requests with undici, honouring HTTP(S)_PROXY and NO_PROXY, except to this machine
 * (localhost, 127.0.0.0/8, ::1), as Go's and curl's clients do: a proxy elsewhere cannot
 * reach this machine's loopback, where the embedded sandbox and a local `sandbox serve` are.
 */
export class UndiciTransport implements Transport {
  private readonly timeoutMs: number;
  private readonly agents: Promise<Agents>;
  /** The agent for the origin served on a local socket, with that origin. */
  private readonly local: { origin: string; agent: Dispatcher } | undefined;
  private closed = false;

  constructor(
    private readonly timeoutSeconds: number,
    /** An origin reached through a local socket instead of the network (the embedded sandbox). */
    local?: { origin: string; socketPath: string },
  ) {
    this.timeoutMs = Math.round(timeoutSeconds * 1000);
    this.agents = acquireAgents(this.timeoutMs);
    if (local) {
      const agent = new AgentClass({
        ...agentOptions(this.timeoutMs),
        connect: { timeout: this.timeoutMs, socketPath: local.socketPath },
      });
      this.local = { origin: local.origin, agent };
    }
  }

  async send(req: HttpRequest): Promise<HttpResponse> {
    const { direct, proxied } = await this.agents;
    const onSocket = this.local !== undefined && req.url.origin === this.local.origin;
    const viaProxy = !onSocket && proxied !== undefined && !isLoopbackHost(req.url.hostname);
    try {
      const response = await exchangeText(
        onSocket ? this.local.agent : viaProxy ? proxied : direct,
        {
          origin: req.url.origin,
          path: `${req.url.pathname}${req.url.search}`,
          method: req.method,
          headers: req.headers,
          body: req.body ?? null,
          // Also per request, so this client's limits hold whatever agent it shares.
          headersTimeout: this.timeoutMs,
          bodyTimeout: this.timeoutMs,
        },
        {
          // The per-pause timeouts do not bound a body that trickles in a byte at a time; this does.
          deadlineMs: deadlineSeconds(this.timeoutSeconds) * 1000,
          maxBytes: MAX_RESPONSE_BYTES,
        },
      );
      return { ...response, headers: flattenHeaders(response.headers) };
    } catch (error) {
      if (error instanceof BodyTooLarge) throw tooLarge(req, error.status);
      if (error instanceof DeadlinePassed) throw deadlineError(req.url, this.timeoutSeconds);
      if (errorCode(error) === 'UND_ERR_INVALID_ARG') {
        throw new UsageError(`the request could not be built: ${(error as Error).message}`);
      }
      throw toNetworkError(error, req.url, this.timeoutSeconds, viaProxy);
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([releaseAgents(this.timeoutMs), this.local?.agent.close()]);
  }
}
