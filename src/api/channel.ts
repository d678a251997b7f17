import { command, option, phrase } from '../core/phrase.js';
import { durationText } from '../core/duration.js';
import {
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENT_REPLAYED_HEADER,
  RETRY_AFTER_HEADER,
} from '../core/contract.js';
import { ApiError, NetworkError, ProtocolError, TryLaterError } from '../core/errors.js';
import { snippet } from '../core/sanitize.js';
import type { UnknownOutcome } from '../core/unknown-outcome.js';
import { isSafeMethod, type HttpRequest, type HttpResponse, type Transport } from './http.js';
import { isLasting, wasNeverSent } from './network-errors.js';
import type { ClientOptions, WriteOptions } from './options.js';
import {
  DEFAULT_BACKOFF,
  MAX_RETRY_AFTER_MS,
  RETRYABLE_STATUSES,
  backoffDelay,
  parseRetryAfter,
} from './retry.js';
import { redactHeader, scrubResponse, type Redact } from '../core/redaction/index.js';
import { brokenAnswer, outcomeUnknownError } from './write-outcome.js';
import {
  answeredWriteOutcome,
  failedWriteOutcome,
  writeRecord,
  type WriteFate,
} from './write-record.js';
import { noWebAssembly, webAssemblyProblem } from './web-assembly.js';
import { Pacer } from './pacer.js';

const MAX_REDIRECTS = 5;
const CHECK_BASE_URL = phrase`Check the base URL: ${command('profile show')}.`;
/** First pause before a write with no answer is sent again (--retry-unknown). */
const RESEND_BACKOFF_BASE_MS = 100;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** The GET that reads a write's result where a 303 See Other sends it: no body, no key. */
function seeOther(write: HttpRequest, target: URL): HttpRequest {
  const dropped = new Set(['content-type', 'content-length', IDEMPOTENCY_KEY_HEADER]);
  const headers = Object.fromEntries(
    Object.entries(write.headers).filter(([name]) => !dropped.has(name.toLowerCase())),
  );
  return { method: 'GET', url: target, headers };
}

/** Where a redirect goes; a Location that is no URL is the service's error, said as such. */
function redirectTarget(location: string, request: HttpRequest, status: number): URL {
  try {
    return new URL(location, request.url);
  } catch {
    const where = `"${snippet(location, 80)}", which is not a URL`;
    const what = `the service redirected ${request.method} ${request.url.pathname} to ${where}`;
    // A write answered with a redirect was not carried out; a read is a broken answer.
    if (!isSafeMethod(request.method)) {
      throw new ApiError(
        status,
        `http_${status}`,
        `${what}; petstore does not send a write again elsewhere`,
        {
          hint: CHECK_BASE_URL,
        },
      );
    }
    throw new ProtocolError(status, what, { hint: CHECK_BASE_URL });
  }
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * How a client's requests travel: its transport (undici, loaded on the first request), the
 * verbose log, responses masked as they arrive, retries, redirects and deprecation notices.
 * What is sent is the client's business; how it gets there and back is this one's.
 */
export class HttpChannel {
  private transport: Transport | undefined;
  /** The service's pace, as its RateLimit fields say it: every request of this client waits on it. */
  private readonly pacer: Pacer;
  /** The undici transport this channel made for itself, and so closes. */
  private ownTransport: Transport | undefined;

  constructor(
    private readonly options: ClientOptions,
    private readonly redact: Redact,
  ) {
    this.transport = options.transport;
    this.pacer = new Pacer({
      now: options.now ?? Date.now,
      sleep: options.sleep ?? defaultSleep,
    });
    // undici is loaded on the first request, but what it needs is asked for now: a bulk run
    // or a smoke check makes its client before its journal or its first check.
    const problem = this.transport ? undefined : webAssemblyProblem();
    if (problem !== undefined) throw noWebAssembly(problem);
  }

  async close(): Promise<void> {
    await this.ownTransport?.close();
  }

  /** The undici transport is loaded on the first request, so a client costs nothing until used. */
  private async transportFor(): Promise<Transport> {
    if (!this.transport) {
      const { UndiciTransport } = await import('./transport.js');
      const { baseUrl, socketPath } = this.options;
      const local =
        socketPath !== undefined && baseUrl !== undefined
          ? { origin: new URL(baseUrl).origin, socketPath }
          : undefined;
      this.transport ??= this.ownTransport = new UndiciTransport(
        this.options.timeoutSeconds,
        local,
        this.options.proxy,
        this.options.endsWithProcess === true,
      );
    }
    return this.transport;
  }

  /** One exchange, logged (credentials redacted) when verbose. */
  private async exchange(request: HttpRequest): Promise<HttpResponse> {
    const transport = await this.transportFor();
    const log = this.options.log;
    if (!log) return scrubResponse(await transport.send(request), this.redact);
    const started = performance.now();
    log(`> ${request.method} ${request.url.href}`);
    for (const [name, value] of Object.entries(request.headers)) {
      log(`> ${name}: ${redactHeader(name, value)}`);
    }
    if (request.body !== undefined) log(`> (body ${Buffer.byteLength(request.body)} bytes)`);
    const elapsed = () => `${Math.round(performance.now() - started)} ms`;
    try {
      const response = scrubResponse(await transport.send(request), this.redact);
      log(`< ${response.status} ${request.method} ${request.url.href} (${elapsed()})`);
      for (const [name, value] of Object.entries(response.headers)) {
        log(`< ${name}: ${redactHeader(name, value ?? '')}`);
      }
      return response;
    } catch (error) {
      const code = error instanceof NetworkError ? error.code : 'error';
      log(`< ${code} ${request.method} ${request.url.href} (${elapsed()})`);
      throw error;
    }
  }

  /**
   * Sends with retries. GET is retried on network errors and 429/502/503/504. POST is retried,
   * with its Idempotency-Key unchanged, when it certainly did nothing: it never left this
   * machine (refused, DNS) or the service answered 429. A POST with no answer, or answered 5xx,
   * is sent again only when the caller asks (resendWhenUnknown); otherwise its outcome is
   * reported unknown.
   */
  async send(
    request: HttpRequest,
    unknownOutcome?: UnknownOutcome,
    write: WriteOptions = {},
  ): Promise<HttpResponse> {
    const observe = this.options.onWrite;
    const run = { started: Date.now(), attempts: 0, replayed: false };
    if (observe === undefined || isSafeMethod(request.method)) {
      return this.sendRetrying(request, unknownOutcome, write, run);
    }
    const tell = (fate: WriteFate) => {
      try {
        observe(writeRecord(request, this.redact, run, fate, write.label));
      } catch (error) {
        this.options.log?.(`! the record of this write failed: ${String(error)}`);
      }
    };
    try {
      const response = await this.sendRetrying(request, unknownOutcome, write, run);
      tell(answeredWriteOutcome(response));
      return response;
    } catch (error) {
      tell(failedWriteOutcome(error));
      throw error;
    }
  }

  private async sendRetrying(
    request: HttpRequest,
    unknownOutcome: UnknownOutcome | undefined,
    write: WriteOptions,
    run: { attempts: number; replayed: boolean },
  ): Promise<HttpResponse> {
    const sleep = this.options.sleep ?? defaultSleep;
    const now = this.options.now ?? Date.now;
    const policy = { ...DEFAULT_BACKOFF, random: this.options.random ?? Math.random };
    const safe = isSafeMethod(request.method);
    /** This call already sent the write once without learning what became of it. */
    let unanswered = false;
    /** What the service asked this request to wait (Retry-After), in all, of maxWait. */
    let waited = 0;
    const maxWait = this.options.maxWaitMs ?? MAX_RETRY_AFTER_MS;
    for (let attempt = 0; ; attempt++) {
      const canRetry = attempt < this.options.retries;
      let response: HttpResponse;
      run.attempts++;
      // Sent when the service's quota allows (none left: after it comes back), not refused.
      const pacedWait = await this.pacer.take(maxWait);
      if (pacedWait !== undefined) throw tryLater(429, { at: now(), waitMs: pacedWait }, maxWait);
      try {
        response = await this.followRedirects(request);
        this.pacer.learn(response.headers);
      } catch (error) {
        this.pacer.forget();
        if (
          error instanceof NetworkError &&
          canRetry &&
          (safe || wasNeverSent(error)) &&
          // A service too slow for the whole deadline would be as slow again.
          !isLasting(error)
        ) {
          await sleep(backoffDelay(attempt, policy));
          continue;
        }
        // A write answered with what is not HTTP: it reached the service, which may have acted.
        if (error instanceof ProtocolError && !safe)
          throw brokenAnswer(error, request, unknownOutcome);
        if (error instanceof NetworkError && !safe && !wasNeverSent(error)) {
          if (write.resendWhenUnknown && canRetry) {
            unanswered = true;
            this.options.log?.(`! no answer (${error.code}); sending again with the same key`);
            // No answer is not the service asking to slow down: a short pause suffices.
            await sleep(backoffDelay(attempt, { ...policy, baseMs: RESEND_BACKOFF_BASE_MS }));
            continue;
          }
          throw outcomeUnknownError(error, request, unknownOutcome);
        }
        throw error;
      }
      this.noticeDeprecation(request, response);
      if (!safe && response.headers[IDEMPOTENT_REPLAYED_HEADER] === 'true') {
        // After this call's own unanswered send, the replay may be of that send: made now.
        run.replayed = !unanswered;
        write.onReplayed?.({ afterUnansweredSend: unanswered });
      }
      // A write answered 5xx may have been carried out: sent again only when asked, with its key.
      const retryable = safe
        ? RETRYABLE_STATUSES.has(response.status)
        : response.status === 429 || (write.resendWhenUnknown === true && response.status >= 500);
      const retryAfter = retryable
        ? parseRetryAfter(response.headers[RETRY_AFTER_HEADER], now())
        : undefined;
      // A wait the service asks for before it takes any request (429; 502-504 to a read, which
      // did nothing): past what the run may wait in all, the command stops, to be run later.
      if (
        retryAfter !== undefined &&
        (safe || response.status === 429) &&
        waited + retryAfter > maxWait
      ) {
        throw tryLater(response.status, { at: now(), waitMs: retryAfter }, maxWait);
      }
      if (canRetry && retryable) {
        if (!safe && response.status >= 500) unanswered = true;
        if (retryAfter === undefined || waited + retryAfter <= maxWait) {
          waited += retryAfter ?? 0;
          await sleep(retryAfter ?? backoffDelay(attempt, policy));
          continue;
        }
      }
      return response;
    }
  }

  /** Follows same-origin redirects for GET; never sends the key to another origin. */
  private async followRedirects(request: HttpRequest): Promise<HttpResponse> {
    let current = request;
    for (let hop = 0; ; hop++) {
      const response = await this.exchange(current);
      const location = response.headers.location;
      if (!REDIRECT_STATUSES.has(response.status) || location === undefined) return response;
      const target = redirectTarget(location, current, response.status);
      if (target.origin !== request.url.origin) {
        throw new ProtocolError(
          response.status,
          `the service redirected to another origin (${target.origin}); petstore does not follow it, so the API key stays with ${request.url.origin}`,
          { hint: CHECK_BASE_URL },
        );
      }
      // 303 See Other: the write was carried out, and its result is to be read there.
      if (!isSafeMethod(current.method) && response.status === 303) {
        current = seeOther(current, target);
        continue;
      }
      if (!isSafeMethod(current.method)) {
        throw new ApiError(
          response.status,
          `http_${response.status}`,
          `the service redirected ${current.method} ${current.url.pathname} to ${target.pathname}; petstore does not send a write again elsewhere`,
          { hint: CHECK_BASE_URL },
        );
      }
      if (hop >= MAX_REDIRECTS) {
        throw new ProtocolError(
          response.status,
          `the service redirected ${request.method} ${request.url.pathname} ${MAX_REDIRECTS} times and then again (to ${target.pathname}); petstore stops there`,
          {
            hint: phrase`The service may be redirecting in a loop; check the base URL: ${command('profile show')}.`,
          },
        );
      }
      current = { ...current, url: target };
    }
  }

  private noticeDeprecation(request: HttpRequest, response: HttpResponse): void {
    const { deprecation, sunset } = response.headers;
    if (deprecation === undefined && sunset === undefined) return;
    this.options.onDeprecation?.({
      method: request.method,
      path: request.url.pathname,
      deprecation,
      sunset,
    });
  }
}

/** The service asks to be waited for, past `maxWait`: try later (exit 75), saying when. */
function tryLater(
  status: number,
  asked: { at: number; waitMs: number },
  maxWait: number,
): TryLaterError {
  const retryAt = asked.at + asked.waitMs;
  const when = new Date(Math.ceil(retryAt / 1000) * 1000).toISOString().replace('.000Z', 'Z');
  const asks = Math.ceil(asked.waitMs / 1000);
  return new TryLaterError(
    `the service asks to be left alone for ${asks} s (Retry-After), more than this run may wait (${durationText(maxWait)}); try again after ${when}`,
    {
      status,
      retryAt,
      hint: phrase`Run it again after ${when}, or let it wait that long: ${option('maxWait', `${Math.max(asks, 1)}s`)}.`,
    },
  );
}
