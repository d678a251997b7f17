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
  /** Injected in tests; by default one keep-alive agent per process that honours *_PROXY. */
  dispatcher?: Dispatcher | undefined;
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

/** Sends one HTTP exchange with undici; turns every transport failure into a NetworkError. */
export class HttpTransport {
  private readonly dispatcher: Dispatcher;
  private readonly ownsDispatcher: boolean;

  constructor(private readonly options: TransportOptions) {
    const timeoutMs = Math.round(options.timeoutSeconds * 1000);
    this.ownsDispatcher = options.dispatcher === undefined;
    this.dispatcher =
      options.dispatcher ??
      new EnvHttpProxyAgent({
        connect: { timeout: timeoutMs },
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        maxResponseSize: MAX_RESPONSE_BYTES,
      });
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
    if (this.ownsDispatcher) await this.dispatcher.close();
  }
}
