import { EnvHttpProxyAgent, request, type Dispatcher } from 'undici';
import { toNetworkError } from './network-errors.js';

export interface HttpRequest {
  method: 'GET' | 'POST';
  url: URL;
  headers: Record<string, string>;
  body?: string;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string | undefined>;
  text: string;
}

export interface TransportOptions {
  timeoutSeconds: number;
  /** Receives verbose lines (already redacted); absent when not verbose. */
  log?: ((line: string) => void) | undefined;
}

const MAX_RESPONSE_BYTES = 32 * 1024 * 1024;
const REDACTED_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie']);

function redact(name: string, value: string): string {
  if (!REDACTED_HEADERS.has(name.toLowerCase())) return value;
  const scheme = /^(\w+)\s/.exec(value)?.[1];
  return scheme ? `${scheme} [redacted]` : '[redacted]';
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>) {
  const flat: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(headers)) {
    flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

/** One keep-alive agent per process, shared by every client and closed with the last one. */
const sharedAgent = {
  agent: undefined as EnvHttpProxyAgent | undefined,
  users: 0,
  acquire(timeoutSeconds: number): EnvHttpProxyAgent {
    const timeoutMs = Math.round(timeoutSeconds * 1000);
    this.agent ??= new EnvHttpProxyAgent({
      connect: { timeout: timeoutMs },
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      maxResponseSize: MAX_RESPONSE_BYTES,
    });
    this.users++;
    return this.agent;
  },
  async release(): Promise<void> {
    this.users--;
    if (this.users > 0 || !this.agent) return;
    const agent = this.agent;
    this.agent = undefined;
    await agent.close();
  },
};

/** Sends one HTTP exchange with undici; turns every transport failure into a NetworkError. */
export class HttpTransport {
  private readonly dispatcher: Dispatcher;
  private closed = false;

  constructor(private readonly options: TransportOptions) {
    this.dispatcher = sharedAgent.acquire(options.timeoutSeconds);
  }

  async send(req: HttpRequest): Promise<HttpResponse> {
    const log = this.options.log;
    const started = performance.now();
    if (log) {
      log(`> ${req.method} ${req.url.href}`);
      for (const [name, value] of Object.entries(req.headers))
        log(`> ${name}: ${redact(name, value)}`);
      if (req.body !== undefined) log(`> (body ${Buffer.byteLength(req.body)} bytes)`);
    }
    try {
      const response = await request(req.url, {
        method: req.method,
        headers: req.headers,
        body: req.body ?? null,
        dispatcher: this.dispatcher,
      });
      const text = await response.body.text();
      const headers = flattenHeaders(response.headers);
      if (log) {
        const ms = Math.round(performance.now() - started);
        log(`< ${response.statusCode} ${req.method} ${req.url.href} (${ms} ms)`);
        for (const [name, value] of Object.entries(headers)) {
          log(`< ${name}: ${redact(name, value ?? '')}`);
        }
      }
      return { status: response.statusCode, headers, text };
    } catch (error) {
      const failure = toNetworkError(error, req.url, this.options.timeoutSeconds);
      if (log) {
        const ms = Math.round(performance.now() - started);
        log(`< ${failure.code} ${req.method} ${req.url.href} (${ms} ms)`);
      }
      throw failure;
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await sharedAgent.release();
  }
}
