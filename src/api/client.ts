import { randomUUID } from 'node:crypto';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAYED_HEADER } from '../core/contract.js';
import { ApiError, NetworkError, ProtocolError, UsageError } from '../core/errors.js';
import type { Int64 } from '../core/int64.js';
import {
  UNKNOWN_MESSAGE_OUTCOME,
  UNKNOWN_PET_OUTCOME,
  resendHint,
  type UnknownOutcome,
} from '../core/unknown-outcome.js';
import { parseJson, stringifyJson } from '../core/json.js';
import { SecretRedactor } from '../core/redact.js';
import type { ListPetsQuery, MessageReceipt, NewPet, Pet } from '../core/types.js';
import {
  checkMessageReceipt,
  checkPet,
  checkPets,
  decodeResponse,
  type ShapeCheck,
} from './decode.js';
import { linkTarget } from './link-header.js';
import { DEADLINE_EXCEEDED, wasNeverSent } from './network-errors.js';
import { scrubResponse, type Redact } from './scrub.js';
import { DEFAULT_BACKOFF, RETRYABLE_STATUSES, backoffDelay, parseRetryAfter } from './retry.js';
import type { HttpRequest, HttpResponse, Transport } from './http.js';

export interface DeprecationNotice {
  method: string;
  path: string;
  deprecation?: string | undefined;
  sunset?: string | undefined;
}

export interface ClientOptions {
  /** Profile name, for hints when a URL is missing. */
  profile: string;
  baseUrl?: string | undefined;
  quickstartUrl?: string | undefined;
  apiKey: string;
  /** A local socket the base URL's origin is reached through (the embedded sandbox). */
  socketPath?: string | undefined;
  timeoutSeconds: number;
  retries: number;
  userAgent: string;
  /** Receives the verbose lines of each exchange, credentials redacted; absent when quiet. */
  log?: ((line: string) => void) | undefined;
  /** Sends the requests; default: undici with this client's timeout. Its giver closes it. */
  transport?: Transport | undefined;
  onDeprecation?: ((notice: DeprecationNotice) => void) | undefined;
  /**
   * Masks the secrets the caller knows of in every response, as it arrives; the client's own
   * key is always masked (by itself when this is absent).
   */
  redact?: Redact | undefined;
  sleep?: ((ms: number) => Promise<void>) | undefined;
  random?: (() => number) | undefined;
  now?: (() => number) | undefined;
}

/** Longest Retry-After the tool will wait; beyond it, the error is reported instead. */
const MAX_RETRY_AFTER_MS = 30_000;
const MAX_REDIRECTS = 5;
/** First pause before a write with no answer is sent again (--retry-unknown). */
const RESEND_BACKOFF_BASE_MS = 100;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const AUTH_HINT =
  'Check the API key: petstore auth status (PETSTORE_API_KEY overrides the stored one).';

/** Joins a path to a base URL, keeping the base's path (e.g. /v1) with or without a trailing slash. */
export function joinUrl(base: string, path: string): URL {
  const url = new URL(base);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
  url.search = '';
  url.hash = '';
  return url;
}

const REDACTED_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie']);

function redactHeader(name: string, value: string): string {
  if (!REDACTED_HEADERS.has(name.toLowerCase())) return value;
  const scheme = /^(\w+)\s/.exec(value)?.[1];
  return scheme ? `${scheme} [redacted]` : '[redacted]';
}

function outcomeUnknownError(
  error: NetworkError,
  request: HttpRequest,
  unknown: UnknownOutcome = { what: 'it may or may not have taken effect', hint: '' },
): NetworkError {
  const reason = error.message.replace(/^cannot reach \S+: /, '');
  const key = request.headers[IDEMPOTENCY_KEY_HEADER];
  return new NetworkError(
    error.code,
    `no answer to ${request.method} ${request.url.pathname} from ${request.url.host} (${reason}): the outcome is unknown, ${unknown.what}${key ? ` (Idempotency-Key ${key})` : ''}`,
    {
      hint: resendHint(unknown, key) || undefined,
      cause: error,
      outcomeUnknown: true,
      idempotencyKey: key,
    },
  );
}

/**
 * A write the service answered with a failure of its own (5xx), or with success (2xx) in a body
 * that cannot be read: it may have been carried out, so its error says the outcome is unknown
 * and how to send it again safely. A refusal (4xx) did nothing and is left as it is.
 */
function answeredWithoutOutcome(
  error: unknown,
  status: number,
  request: HttpRequest,
  unknown: UnknownOutcome,
): unknown {
  const succeeded = status >= 200 && status <= 299;
  if (!(succeeded || status >= 500)) return error;
  if (!(error instanceof ApiError || error instanceof ProtocolError)) return error;
  const key = request.headers[IDEMPOTENCY_KEY_HEADER];
  const why = succeeded
    ? `The service answered HTTP ${status} (success) but its answer cannot be read: ${unknown.what}.`
    : `The service failed after receiving the request: ${unknown.what}.`;
  const options = {
    hint: `${why} ${resendHint(unknown, key)}`,
    cause: error,
    outcomeUnknown: true,
    idempotencyKey: key,
  };
  return error instanceof ApiError
    ? new ApiError(error.status, error.code, error.message, {
        ...options,
        requestId: error.requestId,
      })
    : new ProtocolError(error.status, error.message, options);
}

/** One page of the list, and the page after it when the service links one (RFC 8288). */
export interface PetsPage {
  pets: Pet[];
  /** The address this page was fetched from. */
  url: URL;
  next: URL | undefined;
}

/** A request as `--dry-run` shows it: what would be sent, the key redacted. */
export interface RequestPreview {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

/** Options of every write (POST). */
export interface WriteOptions {
  /** Sent as Idempotency-Key; a new random UUID when absent. */
  idempotencyKey?: string | undefined;
  /**
   * When no answer comes after the request may have been sent, or the service answers 5xx,
   * send it again with the same key (up to the client's retries). Only when the user asked: a
   * service that ignores the key may then do the write twice.
   */
  resendWhenUnknown?: boolean | undefined;
  /** Called when the service says its answer is a replay of an earlier send with the key. */
  onReplayed?: (() => void) | undefined;
}

function preview(request: HttpRequest): RequestPreview {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    headers[name] = redactHeader(name, value);
  }
  return {
    method: request.method,
    url: request.url.href,
    headers,
    body: request.body === undefined ? undefined : parseJson(request.body),
  };
}

function ownKeyRedactor(apiKey: string): Redact {
  const redactor = new SecretRedactor();
  redactor.add(apiKey);
  return (text) => redactor.redact(text);
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The Animal Store API: one method per operation of the interface. */
export class PetstoreClient {
  private transport: Transport | undefined;
  /** The undici transport this client made for itself, and so closes. */
  private ownTransport: Transport | undefined;

  private readonly redact: Redact;

  constructor(private readonly options: ClientOptions) {
    this.transport = options.transport;
    this.redact = options.redact ?? ownKeyRedactor(options.apiKey);
  }

  async listPets(query: ListPetsQuery = {}): Promise<Pet[]> {
    return (await this.listPetsPage(query)).pets;
  }

  /**
   * One page of GET /pets: the first (from a query) or the one a previous page's Link rel=next
   * named. The link is followed only to the service's own origin, so the key goes nowhere else.
   */
  async listPetsPage(from: ListPetsQuery | URL): Promise<PetsPage> {
    let url: URL;
    if (from instanceof URL) {
      url = from;
      const origin = this.apiUrl('pets').origin;
      if (url.origin !== origin) {
        throw new ProtocolError(
          200,
          `the service's link to the next page goes to another origin (${url.origin}); petstore does not follow it, so the API key stays with ${origin}`,
        );
      }
    } else {
      url = this.apiUrl('pets');
      if (from.status !== undefined) url.searchParams.set('status', from.status);
      if (from.limit !== undefined) url.searchParams.set('limit', String(from.limit));
    }
    const response = await this.send(this.build('GET', url));
    const pets = this.decode<Pet[]>(response, checkPets, 'a list of pets', { 401: AUTH_HINT });
    return { pets, url, next: linkTarget(response.headers.link, 'next', url) };
  }

  async createPet(pet: NewPet, options: WriteOptions = {}): Promise<Pet> {
    const request = this.createPetRequest(pet, options);
    return this.write(request, options, UNKNOWN_PET_OUTCOME, checkPet, 'a pet');
  }

  /** What createPet would send, for --dry-run: nothing is sent. */
  previewCreatePet(pet: NewPet, options: WriteOptions = {}): RequestPreview {
    return preview(this.createPetRequest(pet, options));
  }

  private createPetRequest(pet: NewPet, options: WriteOptions): HttpRequest {
    return this.build('POST', this.apiUrl('pets'), stringifyJson(pet), options);
  }

  async getPet(id: Int64): Promise<Pet> {
    const url = this.apiUrl(`pets/${id.toString()}`);
    const response = await this.send(this.build('GET', url));
    return this.decode<Pet>(response, checkPet, 'a pet', {
      401: AUTH_HINT,
      404: `No animal has id ${id.toString()}. List them with: petstore pets list`,
    });
  }

  async sendMessage(message: string, options: WriteOptions = {}): Promise<MessageReceipt> {
    const request = this.sendMessageRequest(message, options);
    return this.write(
      request,
      options,
      UNKNOWN_MESSAGE_OUTCOME,
      checkMessageReceipt,
      'a message receipt',
    );
  }

  /** What sendMessage would send, for --dry-run: nothing is sent. */
  previewSendMessage(message: string, options: WriteOptions = {}): RequestPreview {
    return preview(this.sendMessageRequest(message, options));
  }

  private sendMessageRequest(message: string, options: WriteOptions): HttpRequest {
    const base = this.options.quickstartUrl;
    if (!base) {
      throw new UsageError(`profile "${this.options.profile}" has no quickstart URL`, {
        hint: `Run: petstore profile set ${this.options.profile} --quickstart-url URL (or pass --quickstart-url, or set PETSTORE_QUICKSTART_URL).`,
      });
    }
    return this.build('POST', joinUrl(base, 'messages'), stringifyJson({ message }), options);
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

  private apiUrl(path: string): URL {
    const base = this.options.baseUrl;
    if (!base) {
      throw new UsageError(`profile "${this.options.profile}" has no base URL`, {
        hint: `Run: petstore profile set ${this.options.profile} --base-url URL (or pass --base-url, or set PETSTORE_BASE_URL).`,
      });
    }
    return joinUrl(base, path);
  }

  /** Sends a write (POST) and decodes what it created. */
  private async write<T>(
    request: HttpRequest,
    options: WriteOptions,
    unknownOutcome: UnknownOutcome,
    check: ShapeCheck,
    what: string,
  ): Promise<T> {
    const response = await this.send(request, unknownOutcome, options);
    try {
      return this.decode<T>(response, check, what, {
        401: AUTH_HINT,
        400: 'Fix the input and try again; nothing was created.',
      });
    } catch (error) {
      throw answeredWithoutOutcome(error, response.status, request, unknownOutcome);
    }
  }

  /** decodeResponse, with every secret masked in the strings it decodes. */
  private decode<T>(
    response: HttpResponse,
    check: ShapeCheck,
    what: string,
    hints: Partial<Record<number, string>>,
  ): T {
    return decodeResponse<T>(response, check, what, hints, this.redact);
  }

  private build(
    method: HttpRequest['method'],
    url: URL,
    body?: string,
    write: WriteOptions = {},
  ): HttpRequest {
    const headers: Record<string, string> = {
      accept: 'application/json',
      authorization: `Bearer ${this.options.apiKey}`,
      'user-agent': this.options.userAgent,
    };
    if (body === undefined) return { method, url, headers };
    headers['content-type'] = 'application/json';
    // Every write carries a key, so one whose outcome is unknown can be sent again safely.
    headers[IDEMPOTENCY_KEY_HEADER] = write.idempotencyKey ?? randomUUID();
    return { method, url, headers, body };
  }

  /**
   * Sends with retries. GET is retried on network errors and 429/502/503/504. POST is retried,
   * with its Idempotency-Key unchanged, when it certainly did nothing: it never left this
   * machine (refused, DNS) or the service answered 429. A POST with no answer, or answered 5xx,
   * is sent again only when the caller asks (resendWhenUnknown); otherwise its outcome is
   * reported unknown.
   */
  private async send(
    request: HttpRequest,
    unknownOutcome?: UnknownOutcome,
    write: WriteOptions = {},
  ): Promise<HttpResponse> {
    const sleep = this.options.sleep ?? defaultSleep;
    const now = this.options.now ?? Date.now;
    const policy = { ...DEFAULT_BACKOFF, random: this.options.random ?? Math.random };
    const safe = request.method === 'GET';
    for (let attempt = 0; ; attempt++) {
      const canRetry = attempt < this.options.retries;
      let response: HttpResponse;
      try {
        response = await this.followRedirects(request);
      } catch (error) {
        if (
          error instanceof NetworkError &&
          canRetry &&
          (safe || wasNeverSent(error)) &&
          // A service too slow for the whole deadline would be as slow again.
          error.code !== DEADLINE_EXCEEDED
        ) {
          await sleep(backoffDelay(attempt, policy));
          continue;
        }
        if (error instanceof NetworkError && !safe && !wasNeverSent(error)) {
          if (write.resendWhenUnknown && canRetry) {
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
      if (!safe && response.headers[IDEMPOTENT_REPLAYED_HEADER] === 'true') write.onReplayed?.();
      // A write answered 5xx may have been carried out: sent again only when asked, with its key.
      const retryable = safe
        ? RETRYABLE_STATUSES.has(response.status)
        : response.status === 429 || (write.resendWhenUnknown === true && response.status >= 500);
      if (canRetry && retryable) {
        const retryAfter = parseRetryAfter(response.headers['retry-after'], now());
        if (retryAfter === undefined || retryAfter <= MAX_RETRY_AFTER_MS) {
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
      const target = new URL(location, current.url);
      if (target.origin !== request.url.origin) {
        throw new ProtocolError(
          response.status,
          `the service redirected to another origin (${target.origin}); petstore does not follow it, so the API key stays with ${request.url.origin}`,
          { hint: 'Check the base URL: petstore profile show.' },
        );
      }
      if (current.method !== 'GET') {
        throw new ApiError(
          response.status,
          `http_${response.status}`,
          `the service redirected ${current.method} ${current.url.pathname} to ${target.pathname}; petstore does not send a write again elsewhere`,
          { hint: 'Check the base URL: petstore profile show.' },
        );
      }
      if (hop >= MAX_REDIRECTS) {
        throw new ProtocolError(
          response.status,
          `the service redirected ${request.method} ${request.url.pathname} ${MAX_REDIRECTS} times and then again (to ${target.pathname}); petstore stops there`,
          {
            hint: 'The service may be redirecting in a loop; check the base URL: petstore profile show.',
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
