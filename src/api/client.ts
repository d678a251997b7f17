import { command, option, phrase, type Hint } from '../core/phrase.js';
import type { Int64 } from '../core/int64.js';
import {
  UNKNOWN_MESSAGE_OUTCOME,
  UNKNOWN_PET_OUTCOME,
  type UnknownOutcome,
} from '../core/unknown-outcome.js';
import { stringifyJson } from '../core/json.js';
import { UsageError } from '../core/errors.js';
import { redactionOf } from '../core/redaction/index.js';
import type { ListPetsQuery, MessageReceipt, NewPet, Pet } from '../core/interface.js';
import { HttpChannel } from './channel.js';
import {
  checkMessageReceipt,
  checkPet,
  checkPets,
  decodeResponse,
  errorFromResponse,
  type ShapeCheck,
} from './decode.js';
import { isSafeMethod, type HttpRequest, type HttpResponse } from './http.js';
import { checkServiceLink, missingUrlError, resolveApiPath } from './api-path.js';
import { linkTarget, type BrokenLink } from './link-header.js';
import {
  bodyOf,
  rawAnswer,
  type AnyAnswer,
  type AnyRequest,
  type RawAnswer,
} from './any-answer.js';

export { BrokenLink, brokenLinkError } from './link-header.js';
export type { AnyAnswer, AnyRequest, RawAnswer } from './any-answer.js';
import type { ClientOptions, WriteOptions } from './options.js';
import { buildRequest, joinUrl, preview, type RequestPreview } from './request.js';
import type { Redact } from '../core/redaction/index.js';
import { answeredWithoutOutcome } from './write-outcome.js';

export type {
  ClientOptions,
  ClientSettings,
  DeprecationNotice,
  KeyedTarget,
  ServiceTarget,
  WriteOptions,
} from './options.js';
export type { RequestPreview } from './request.js';
export { joinUrl } from './request.js';

const AUTH_HINT = phrase`Check the API key: ${command('auth status')} (PETSTORE_API_KEY overrides the stored one).`;

/** One page of the list, and the page after it when the service links one (RFC 8288). */
export interface PetsPage {
  pets: Pet[];
  status: number;
  headers: Record<string, string | undefined>;
  /** The address this page was fetched from. */
  url: URL;
  next: URL | BrokenLink | undefined;
}

/** The Animal Store API: one method per operation of the interface. */
export class PetstoreClient {
  private readonly channel: HttpChannel;
  private readonly redact: Redact;

  constructor(private readonly options: ClientOptions) {
    this.redact = options.redact ?? redactionOf(options.apiKey);
    this.channel = new HttpChannel(options, this.redact);
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
      checkServiceLink(url, this.options, 'link to the next page');
    } else {
      url = this.apiUrl('pets');
      if (from.status !== undefined) url.searchParams.set('status', from.status);
      if (from.limit !== undefined) url.searchParams.set('limit', String(from.limit));
    }
    const response = await this.send(this.build('GET', url));
    const pets = this.decode<Pet[]>(response, checkPets, 'a list of pets', { 401: AUTH_HINT });
    return {
      pets,
      status: response.status,
      headers: response.headers,
      url,
      next: linkTarget(response.headers.link, 'next', url),
    };
  }

  async createPet(pet: NewPet, options: WriteOptions = {}): Promise<Pet> {
    const request = this.createPetRequest(pet, options);
    const labelled = { ...options, label: options.label ?? { operation: 'pets add' } };
    return this.write(request, labelled, UNKNOWN_PET_OUTCOME, checkPet, 'a pet');
  }

  /** What createPet would send, for --dry-run: nothing is sent. */
  /** The W3C trace this client's requests carry now (the call's, else the run's), if any. */
  traceId(): string | undefined {
    return this.options.trace?.current().traceId;
  }

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
      404: phrase`List the animals there are with: ${command('pets list')}`,
    });
  }

  async sendMessage(message: string, options: WriteOptions = {}): Promise<MessageReceipt> {
    const request = this.sendMessageRequest(message, options);
    return this.write(
      request,
      { ...options, label: options.label ?? { operation: 'message send', length: message.length } },
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
    if (!base) throw missingUrlError('quickstart URL', this.options);
    return this.build('POST', joinUrl(base, 'messages'), stringifyJson({ message }), options);
  }

  /**
   * Any request the service offers (`petstore api`), with the same key, masking, retries of
   * safe methods and Idempotency-Key on writes as the operations above. A status that is not
   * 2xx is an ApiError; a write answered 5xx, or 2xx with a body that cannot be read, has an
   * unknown outcome. The body is returned as JSON when it is JSON, else as text.
   */
  async request(spec: AnyRequest, write: WriteOptions = {}): Promise<AnyAnswer> {
    const request = this.anyRequest(spec, write);
    const unknown = { what: 'it may or may not have taken effect', hint: '' };
    const response = await this.send(request, unknown, {
      ...write,
      label: write.label ?? { operation: 'api' },
    });
    if (response.status < 200 || response.status > 299) {
      const error = errorFromResponse(response, { 401: AUTH_HINT }, this.redact);
      throw isSafeMethod(request.method)
        ? error
        : answeredWithoutOutcome(error, response.status, request, unknown);
    }
    let read: { body: unknown; isText: boolean };
    try {
      read = bodyOf(response, request, this.redact);
    } catch (error) {
      throw isSafeMethod(request.method)
        ? error
        : answeredWithoutOutcome(error, response.status, request, unknown);
    }
    return {
      status: response.status,
      headers: response.headers,
      ...read,
      url: request.url,
      next: linkTarget(response.headers.link, 'next', request.url),
    };
  }

  /**
   * One request, and its answer as it came, whatever its status: for checks that judge the
   * answer themselves (smoke's contract checks). Safe methods are retried as usual.
   */
  async exchange(spec: AnyRequest, write: WriteOptions = {}): Promise<RawAnswer> {
    const request = this.anyRequest(spec, write);
    const unknown = { what: 'it may or may not have taken effect', hint: '' };
    const labelled = { ...write, label: write.label ?? { operation: 'smoke' } };
    return rawAnswer(await this.send(request, unknown, labelled), request.url, this.redact);
  }

  /** What request() would send, for --dry-run: nothing is sent. */
  previewRequest(spec: AnyRequest, write: WriteOptions = {}): RequestPreview {
    return preview(this.anyRequest(spec, write));
  }

  private anyRequest(spec: AnyRequest, write: WriteOptions): HttpRequest {
    // A URL is a link the service gave (--paginate): followed only on the service's origins.
    if (spec.url) checkServiceLink(spec.url, this.options, 'link');
    const url = spec.url ?? resolveApiPath(spec.path, this.options);
    const request = buildRequest(spec.method, url, this.options, spec.body, write, spec.headers);
    if (spec.anonymous) delete request.headers.authorization;
    return request;
  }

  async close(): Promise<void> {
    await this.channel.close();
  }

  private apiUrl(path: string): URL {
    const base = this.options.baseUrl;
    if (!base) {
      throw new UsageError(`profile "${this.options.profile}" has no base URL`, {
        hint: phrase`Run: ${command('profile set')} ${this.options.profile} ${option('baseUrl', 'URL')} (or pass ${option('baseUrl')}, or set PETSTORE_BASE_URL).`,
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
    const date = response.headers.date;
    if (date !== undefined) options.onServiceDate?.(date);
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
    hints: Partial<Record<number, Hint>>,
  ): T {
    return decodeResponse<T>(response, check, what, hints, this.redact);
  }

  private build(method: HttpRequest['method'], url: URL, body?: string, write?: WriteOptions) {
    return buildRequest(method, url, this.options, body, write);
  }

  private send(
    request: HttpRequest,
    unknownOutcome?: UnknownOutcome,
    write?: WriteOptions,
  ): Promise<HttpResponse> {
    return this.channel.send(request, unknownOutcome, write);
  }
}
