import type { Dispatcher } from 'undici';
import AgentClass from 'undici/lib/dispatcher/agent.js';
import EnvHttpProxyAgentClass from 'undici/lib/dispatcher/env-http-proxy-agent.js';
import type { HttpRequest, HttpResponse, Transport } from './http.js';
import { ProtocolError, UsageError } from '../core/errors.js';
import { deadlineError, deadlineSeconds, errorCode, toNetworkError } from './network-errors.js';
import { BodyTooLarge, DeadlinePassed, exchangeText } from './text-exchange.js';

const MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

function flattenHeaders(headers: Record<string, string | string[] | undefined>) {
  const flat: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(headers)) {
    flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

/**
 * Keep-alive agents shared by every client in the process, one per timeout (an agent fixes its
 * connect timeout when it is made), each closed with the last client that uses it.
 */
const sharedAgents = new Map<number, { agent: Dispatcher; users: number }>();

const PROXY_VARIABLES = ['HTTP_PROXY', 'http_proxy', 'HTTPS_PROXY', 'https_proxy'];

function acquireAgent(timeoutMs: number): Dispatcher {
  let entry = sharedAgents.get(timeoutMs);
  if (!entry) {
    const options = {
      connect: { timeout: timeoutMs },
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      maxResponseSize: MAX_RESPONSE_BYTES,
    };
    // The proxy-aware agent looks at the proxy variables on every request; with none set, a
    // plain agent does the same work without that cost.
    const proxied = PROXY_VARIABLES.some((name) => process.env[name]);
    const agent = proxied ? new EnvHttpProxyAgentClass(options) : new AgentClass(options);
    entry = { agent, users: 0 };
    sharedAgents.set(timeoutMs, entry);
  }
  entry.users++;
  return entry.agent;
}

async function releaseAgent(timeoutMs: number): Promise<void> {
  const entry = sharedAgents.get(timeoutMs);
  if (!entry || --entry.users > 0) return;
  sharedAgents.delete(timeoutMs);
  await entry.agent.close();
}

/** A response petstore will not read; fetching it again would not make it smaller. */
function tooLarge(req: HttpRequest, status: number): ProtocolError {
  return new ProtocolError(
    status,
    `the response to ${req.method} ${req.url.pathname} is larger than ${MAX_RESPONSE_BYTES / 1024 / 1024} MiB, more than petstore reads`,
    { hint: 'Ask for less, e.g. with --limit.' },
  );
}

/** Sends requests with undici (honouring HTTP(S)_PROXY and NO_PROXY). */
export class UndiciTransport implements Transport {
  private readonly timeoutMs: number;
  private readonly dispatcher: Dispatcher;
  private closed = false;

  constructor(private readonly timeoutSeconds: number) {
    this.timeoutMs = Math.round(timeoutSeconds * 1000);
    this.dispatcher = acquireAgent(this.timeoutMs);
  }

  async send(req: HttpRequest): Promise<HttpResponse> {
    try {
      const response = await exchangeText(
        this.dispatcher,
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
      throw toNetworkError(error, req.url, this.timeoutSeconds);
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await releaseAgent(this.timeoutMs);
  }
}
