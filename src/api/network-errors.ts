import { command, option, phrase } from '../core/phrase.js';
import { CONNECT_FAILURES, NetworkError } from '../core/errors.js';

const DESCRIPTIONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset by the server',
  EPIPE: 'connection closed while sending',
  ENOTFOUND: 'host not found (DNS)',
  EAI_AGAIN: 'DNS lookup failed temporarily',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'timed out while connecting',
  UND_ERR_HEADERS_TIMEOUT: 'timed out waiting for the response',
  UND_ERR_BODY_TIMEOUT: 'timed out while reading the response',
  UND_ERR_SOCKET: 'connection closed unexpectedly',
  UND_ERR_ABORTED: 'request aborted',
  UND_ERR_PRX_CONN: 'could not connect through the proxy',
  UND_ERR_PRX_TLS: 'TLS to the proxy failed',
};

/** Errors raised before any byte could have reached the service: safe to retry any method. */
const NOT_SENT = CONNECT_FAILURES;

export function errorCode(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function isTlsCode(code: string): boolean {
  return (
    code.startsWith('ERR_TLS') ||
    code.startsWith('ERR_SSL') ||
    code.includes('CERT') ||
    code === 'UNABLE_TO_VERIFY_LEAF_SIGNATURE'
  );
}

/**
 * The service cannot be reached at all: no connection (refused, no such host, none in time) or
 * no secure one (a TLS failure). Every request would fail the same way.
 */
export function cannotReachService(error: unknown): boolean {
  return error instanceof NetworkError && (NOT_SENT.has(error.code) || isTlsCode(error.code));
}

export function toNetworkError(
  error: unknown,
  url: URL,
  timeoutSeconds: number,
  /** The proxy the request went through (masked): a refusal may be the proxy's. */
  viaProxy?: string,
): NetworkError {
  const code = errorCode(error) ?? 'network_error';
  const target = viaProxy ? `${url.host} through the proxy ${viaProxy}` : url.host;
  let description = DESCRIPTIONS[code];
  if (!description && isTlsCode(code)) description = `TLS failure (${code})`;
  description ??= error instanceof Error ? error.message : 'network failure';
  const timedOut = code.includes('TIMEOUT') || code === 'ETIMEDOUT';
  const hint = timedOut
    ? phrase`The limit is ${timeoutSeconds}s per request; raise it with ${option('timeout', 'SECONDS')}.`
    : viaProxy && NOT_SENT.has(code)
      ? 'Check the proxy variables (HTTP_PROXY, HTTPS_PROXY), or name the host in NO_PROXY.'
      : code === 'ECONNREFUSED' || code === 'ENOTFOUND'
        ? phrase`Check the base URL (${command('profile show')}) and that the service is running.`
        : undefined;
  return new NetworkError(code, `cannot reach ${target}: ${description}`, { hint, cause: error });
}

/**
 * How long a whole exchange, slow body included, may take: 3 × --timeout, and at least 2 s,
 * since undici checks its per-pause timeouts only every half second or so.
 */
export function deadlineSeconds(timeoutSeconds: number): number {
  return Math.max(3 * timeoutSeconds, 2);
}

export const DEADLINE_EXCEEDED = 'deadline_exceeded';

export function deadlineError(url: URL, timeoutSeconds: number): NetworkError {
  const seconds = deadlineSeconds(timeoutSeconds);
  return new NetworkError(
    DEADLINE_EXCEEDED,
    `cannot reach ${url.host}: no complete response within ${seconds}s (the limit for a whole request: 3 times the per-request timeout, at least 2s)`,
    {
      hint: phrase`A slow response used up the time allowed; raise it with ${option('timeout', 'SECONDS')}.`,
    },
  );
}

export function wasNeverSent(error: NetworkError): boolean {
  return NOT_SENT.has(error.code) || error.code === PROXY_REFUSED;
}

export const PROXY_REFUSED = 'proxy_refused';

/** Errors the same request would meet again at once: not retried. */
export function isLasting(error: NetworkError): boolean {
  return error.code === DEADLINE_EXCEEDED || error.code === PROXY_REFUSED;
}

/**
 * The proxy answered instead of passing the request on: 407 (it wants credentials), or any
 * status but 200 to the CONNECT of an https:// request. undici says so in an error meant for
 * programmers ("Proxy Authentication Required (407)", "Proxy response (403) !== 200 when HTTP
 * Tunneling"); this names the proxy and what to do. The service never saw the request.
 */
export function proxyRefusal(
  error: unknown,
  { url: proxy, variable }: { url: string; variable: string },
): NetworkError | undefined {
  const message = error instanceof Error ? error.message : '';
  const status = /Proxy Authentication Required \((\d{3})\)|Proxy response \((\d{3})\)/.exec(
    message,
  );
  if (!status) return undefined;
  const code = Number(status[1] ?? status[2]);
  const credentials = code === 407;
  return new NetworkError(
    PROXY_REFUSED,
    credentials
      ? `the proxy ${proxy} asks for credentials (HTTP 407 Proxy Authentication Required); the request did not reach the service`
      : `the proxy ${proxy} refused to pass the request on (HTTP ${code}); the request did not reach the service`,
    {
      hint: credentials
        ? `Put the user and password in ${variable}: ${variable}=http://user:password@host:port (percent-encoded), or name the host in NO_PROXY.`
        : `Check that the proxy ${variable} names allows this host, or name the host in NO_PROXY.`,
      cause: error,
    },
  );
}
