import { option, phrase } from '../core/phrase.js';
import { RETRY_AFTER_HEADER } from '../core/contract.js';
import type { Dispatcher } from 'undici';
import AgentClass from 'undici/lib/dispatcher/agent.js';
import type { HttpRequest, HttpResponse, Transport } from './http.js';
import { ProtocolError, UsageError } from '../core/errors.js';
import {
  deadlineError,
  deadlineSeconds,
  errorCode,
  proxyRefusal,
  toNetworkError,
} from './network-errors.js';
import { maskCredentials } from '../core/redaction/index.js';
import { bypassesProxy, proxyFor, type ProxySettings } from './proxy-settings.js';
import { isLoopbackHost } from './url-policy.js';
import { BodyTooLarge, DeadlinePassed, exchangeText } from './text-exchange.js';

const MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

const NON_ASCII = /[^\p{ASCII}]/u;

/**
 * A header value as its sender wrote it. undici reads header bytes as Latin-1, so UTF-8 text
 * arrives as mojibake: a zero-width space becomes "â" and two C1 controls, which sanitising
 * leaves as "â", and then nothing hidden is seen inside a key. Valid UTF-8 is decoded as such.
 */
function headerText(value: string): string {
  if (!NON_ASCII.test(value)) return value;
  const bytes = Buffer.from(value, 'latin1');
  const text = bytes.toString('utf8');
  return Buffer.byteLength(text) === bytes.length && !text.includes('\ufffd') ? text : value;
}

/** Headers that mean one thing: given twice, which one counts no client can know. */
const SINGLE_HEADERS = ['location', 'content-type', 'content-length', RETRY_AFTER_HEADER];

function flattenHeaders(headers: Record<string, string | string[] | undefined>) {
  const flat: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(headers)) {
    const joined = Array.isArray(value) ? value.join(', ') : value;
    flat[name.toLowerCase()] = joined === undefined ? undefined : headerText(joined);
  }
  return flat;
}

/** The agents of one timeout: direct, and through the proxy when the environment names one. */
interface Agents {
  direct: Dispatcher;
  proxied: Dispatcher | undefined;
}

/**
 * Keep-alive agents shared by every client in the process, one set per timeout and proxies (an
 * agent fixes both when it is made), each closed with the last client that uses it.
 */
const sharedAgents = new Map<string, SharedAgents>();

interface SharedAgents {
  agents: Promise<Agents>;
  users: number;
  /** Requests sent through them and not yet answered or failed. */
  inFlight: number;
}

function agentOptions(timeoutMs: number) {
  return {
    connect: { timeout: timeoutMs },
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    maxResponseSize: MAX_RESPONSE_BYTES,
  };
}

async function makeAgents(timeoutMs: number, proxy: ProxySettings): Promise<Agents> {
  const options = agentOptions(timeoutMs);
  const direct = new AgentClass(options);
  // With no proxy, the plain agent; the proxy agent is loaded only when one is named.
  if (proxy.http === undefined && proxy.https === undefined) return { direct, proxied: undefined };
  const { proxyAgent } = await import('./proxy-agent.js');
  return { direct, proxied: proxyAgent(options, proxy) };
}

function acquireAgents(id: string, timeoutMs: number, proxy: ProxySettings): SharedAgents {
  let entry = sharedAgents.get(id);
  if (!entry) {
    entry = { agents: makeAgents(timeoutMs, proxy), users: 0, inFlight: 0 };
    sharedAgents.set(id, entry);
  }
  entry.users++;
  return entry;
}

async function releaseAgents(id: string, processEnds: boolean): Promise<void> {
  const entry = sharedAgents.get(id);
  if (!entry || --entry.users > 0) return;
  sharedAgents.delete(id);
  // The process ends next, and its connections are idle: they keep nothing alive.
  if (processEnds && entry.inFlight === 0) return;
  const { direct, proxied } = await entry.agents;
  // Destroyed, not closed: a command ends with nothing in flight but what it chose to abandon
  // (a read a signal cut short), which close() would wait for, up to its timeout.
  await Promise.all([direct.destroy(), proxied?.destroy()]);
}

/**
 * A response that breaks HTTP itself: a header past the parser's limit, a control character in
 * a header, a status line or chunk that is not HTTP. The service was reached and answered
 * against the interface (exit 6, not retried), which is not "cannot reach" (exit 7).
 */
/**
 * What undici's errors say when the bytes that came back are not a valid HTTP response; these
 * are the service's fault, and asking again would get the same. (A body cut short by a closed
 * connection is a SocketError "other side closed": a network failure, retried.)
 */
function whyNotHttp(error: unknown): string | undefined {
  const name = (error as { name?: unknown } | undefined)?.name;
  const message = error instanceof Error ? error.message : '';
  switch (errorCode(error)) {
    case 'UND_ERR_HEADERS_OVERFLOW':
      return 'its headers are larger than an HTTP client reads';
    // The parser stopped after Content-Length was read: a header after it is invalid, or
    // Content-Length is given twice or with Transfer-Encoding.
    case 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH':
      return 'its body does not match its Content-Length, or a header after Content-Length is invalid';
    // undici's own checks: a status below 100, a 101 upgrade no one asked for.
    case 'ERR_ASSERTION':
      return 'its status line is not one a client can take (a status below 100, or an upgrade no one asked for)';
    case 'UND_ERR_SOCKET':
      if (message === 'bad upgrade') return 'it switched protocols (101) though no one asked it to';
      return message === 'bad response'
        ? 'it sent an interim (1xx) response no one asked for'
        : undefined;
    default:
      return name === 'HTTPParserError'
        ? message.replace(/^Response does not match the HTTP\/1\.1 protocol /, '')
        : undefined;
  }
}

function brokenHttp(error: unknown, req: HttpRequest): ProtocolError | undefined {
  const why = whyNotHttp(error);
  if (why === undefined) return undefined;
  return new ProtocolError(
    0,
    `the response to ${req.method} ${req.url.pathname} from ${req.url.host} is not valid HTTP: ${why}`,
    {
      hint: 'The service (or something in front of it) is broken; tell its operators.',
      cause: error,
    },
  );
}

/** A response petstore will not read; fetching it again would not make it smaller. */
function tooLarge(req: HttpRequest, status: number): ProtocolError {
  return new ProtocolError(
    status,
    `the response to ${req.method} ${req.url.pathname} is larger than ${MAX_RESPONSE_BYTES / 1024 / 1024} MiB, more than petstore reads`,
    { hint: phrase`Ask for less, e.g. with ${option('limit')}.` },
  );
}

/**
 * Sends requests with undici, honouring HTTP(S)_PROXY and NO_PROXY, except to this machine
 * (localhost, 127.0.0.0/8, ::1), as Go's and curl's clients do: a proxy elsewhere cannot
 * reach this machine's loopback, where the embedded sandbox and a local `sandbox serve` are.
 */
export class UndiciTransport implements Transport {
  private readonly timeoutMs: number;
  private readonly shared: SharedAgents;
  private readonly agentsId: string;
  /** The agent for the origin served on a local socket, with that origin. */
  private readonly local: { origin: string; agent: Dispatcher } | undefined;
  private closed = false;

  constructor(
    private readonly timeoutSeconds: number,
    /** An origin reached through a local socket instead of the network (the embedded sandbox). */
    local?: { origin: string; socketPath: string },
    /** The proxies to send through (none: every request goes direct). */
    private readonly proxy: ProxySettings = {},
    /** The process ends after close: idle connections are left to the exit (ClientSettings). */
    private readonly processEnds = false,
  ) {
    this.timeoutMs = Math.round(timeoutSeconds * 1000);
    this.agentsId = `${this.timeoutMs} ${proxy.http ?? ''} ${proxy.https ?? ''} ${proxy.noProxy ?? ''}`;
    this.shared = acquireAgents(this.agentsId, this.timeoutMs, proxy);
    if (local) {
      const agent = new AgentClass({
        ...agentOptions(this.timeoutMs),
        connect: { timeout: this.timeoutMs, socketPath: local.socketPath },
      });
      this.local = { origin: local.origin, agent };
    }
  }

  async send(req: HttpRequest): Promise<HttpResponse> {
    this.shared.inFlight++;
    try {
      return await this.sendThrough(await this.shared.agents, req);
    } finally {
      this.shared.inFlight--;
    }
  }

  private async sendThrough({ direct, proxied }: Agents, req: HttpRequest): Promise<HttpResponse> {
    const onSocket = this.local !== undefined && req.url.origin === this.local.origin;
    const viaProxy =
      !onSocket &&
      proxied !== undefined &&
      !isLoopbackHost(req.url.hostname) &&
      !bypassesProxy(this.proxy, req.url);
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
      const twice = SINGLE_HEADERS.find((name) => Array.isArray(response.headers[name]));
      if (twice !== undefined) {
        throw new ProtocolError(
          response.status,
          `the response to ${req.method} ${req.url.pathname} from ${req.url.host} is not valid HTTP: it gives ${twice} more than once`,
          { hint: 'The service (or something in front of it) is broken; tell its operators.' },
        );
      }
      return { ...response, headers: flattenHeaders(response.headers) };
    } catch (error) {
      if (error instanceof ProtocolError) throw error;
      if (error instanceof BodyTooLarge) throw tooLarge(req, error.status);
      if (error instanceof DeadlinePassed) throw deadlineError(req.url, this.timeoutSeconds);
      const refusal = viaProxy ? proxyRefusal(error, this.proxyOf(req.url)) : undefined;
      if (refusal) throw refusal;
      const broken = brokenHttp(error, req);
      if (broken) throw broken;
      // Refused by undici before anything was sent (a header it cannot send, as Expect).
      const code = errorCode(error);
      if (code === 'UND_ERR_INVALID_ARG' || code === 'UND_ERR_NOT_SUPPORTED') {
        throw new UsageError(`the request could not be built: ${(error as Error).message}`);
      }
      throw toNetworkError(
        error,
        req.url,
        this.timeoutSeconds,
        viaProxy ? this.proxyOf(req.url).url : undefined,
      );
    }
  }

  /** The proxy a request to this URL goes through, password masked, and its variable. */
  private proxyOf(url: URL): { url: string; variable: string } {
    const proxy = proxyFor(this.proxy, url);
    return {
      url: maskCredentials(proxy?.url ?? 'the proxy'),
      variable: proxy?.variable ?? 'HTTPS_PROXY',
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // The embedded sandbox's socket is always destroyed: its server, in this process, waits for it.
    await Promise.all([
      releaseAgents(this.agentsId, this.processEnds),
      this.local?.agent.destroy(),
    ]);
  }
}
