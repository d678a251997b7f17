import { hash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { JsonTooDeepError, parseJson, stringifyJson } from '../core/json.js';
import { randomHex } from '../core/random-hex.js';
import {
  GET_PET_SUNSET,
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENT_REPLAYED_HEADER,
} from '../core/contract.js';
import { IdsExhaustedError, type SandboxDatabase, type StoredResponse } from './database.js';
import type { Faults } from './faults.js';
import {
  CURSOR_PARAMETER,
  encodeCursor,
  checkListQuery,
  checkMessage,
  checkNewPet,
  checkPetId,
  type Checked,
  type NewPetInput,
} from './validate.js';

export const API_BASE_PATH = '/v1';
export const QUICKSTART_BASE_PATH = '/quickstart';
export const MAX_BODY_BYTES = 64 * 1024;

export interface SandboxServiceOptions {
  db: SandboxDatabase;
  /**
   * Each accepted API key, and the caller it stands for: Idempotency-Keys are kept per caller
   * (usually the key itself).
   */
  apiKeys: ReadonlyMap<string, string>;
  /** Faults to show on purpose; none when absent. */
  faults?: Faults | undefined;
  /** For Idempotency-Key lifetimes; Date.now when absent. */
  now?: (() => number) | undefined;
}

export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

/** An answer, built before it is sent, so a fault can still decide not to send it. */
interface Reply {
  status: number;
  /** JSON text. */
  body: string;
  headers: Record<string, string>;
  /** A write that took effect now (not an error, not a replay). */
  tookEffect?: boolean;
}

function reply(status: number, body: unknown, headers: Record<string, string> = {}): Reply {
  return { status, body: stringifyJson(body), headers };
}

class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

type Route = { name: 'pets' } | { name: 'pet'; petId: string } | { name: 'messages' };

const ROUTE_METHODS: Record<Route['name'], string[]> = {
  pets: ['GET', 'POST'],
  pet: ['GET'],
  messages: ['POST'],
};

const PET_PATH = new RegExp(`^${API_BASE_PATH}/pets/([^/]+)$`);

function matchRoute(path: string): Route | undefined {
  if (path === `${API_BASE_PATH}/pets`) return { name: 'pets' };
  const pet = PET_PATH.exec(path);
  if (pet) return { name: 'pet', petId: decodeURIComponent(pet[1]!) };
  if (path === `${QUICKSTART_BASE_PATH}/messages`) return { name: 'messages' };
  return undefined;
}

/**
 * X-Request-Id values: unique per server (a random prefix made at start, then a count), and
 * made without node:crypto, which an in-process sandbox would otherwise load for them.
 */
function requestIds(): () => string {
  const prefix = `req_${randomHex(8)}_`;
  let count = 0;
  return () => `${prefix}${(++count).toString(36)}`;
}

function send(res: ServerResponse, { status, body, headers }: Reply, requestId: string) {
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    'x-request-id': requestId,
    ...headers,
  });
  res.end(body);
}

function checked<T>(result: Checked<T>): T {
  if (!result.ok) throw new HttpProblem(400, result.code, result.message);
  return result.value;
}

/** A 401 with the challenge RFC 6750 asks for, so clients know the scheme to use. */
function unauthorized(message: string, error?: 'invalid_request' | 'invalid_token') {
  const challenge = `Bearer realm="animal-store"${error ? `, error="${error}"` : ''}`;
  return new HttpProblem(401, 'unauthorized', message, { 'www-authenticate': challenge });
}

/** Returns the caller the request's API key stands for, once the key is known to be accepted. */
function authenticate(req: IncomingMessage, apiKeys: ReadonlyMap<string, string>): string {
  const header = req.headers.authorization;
  if (header === undefined || header === '') {
    throw unauthorized('missing API key: send Authorization: Bearer <API_KEY>');
  }
  const match = /^Bearer (\S+)$/.exec(header);
  if (!match) {
    throw unauthorized('the Authorization header must be "Bearer <API_KEY>"', 'invalid_request');
  }
  const caller = apiKeys.get(match[1]!);
  if (caller === undefined) throw unauthorized('API key invalid', 'invalid_token');
  return caller;
}

function idempotencyKeyOf(req: IncomingMessage): string | undefined {
  const key = req.headers[IDEMPOTENCY_KEY_HEADER];
  if (key === undefined) return undefined;
  if (typeof key !== 'string' || key === '' || key.length > IDEMPOTENCY_KEY_MAX_LENGTH) {
    throw new HttpProblem(
      400,
      'invalid_idempotency_key',
      `Idempotency-Key must be one value of 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} characters`,
    );
  }
  return key;
}

function sha256(text: string): string {
  return hash('sha256', text);
}

/** Scopes by route and caller, computed once per pair (a handful per server). */
const scopes = new Map<string, string>();

function keyScope(route: string, caller: string): string {
  const id = `${route}\n${caller}`;
  let scope = scopes.get(id);
  if (scope === undefined) {
    scope = `${route} ${sha256(caller).slice(0, 32)}`;
    if (scopes.size < 1000) scopes.set(id, scope);
  }
  return scope;
}

interface Write {
  req: IncomingMessage;
  /** Who sent it (see SandboxServiceOptions.apiKeys). */
  caller: string;
  /** Method and path: a key is scoped to its route and to the caller that sent it. */
  route: string;
  /** What was asked, as checked: the same key is only replayed for the same content. */
  content: unknown;
  perform: () => StoredResponse;
}

/**
 * A write, done at most once per Idempotency-Key: with a key seen before (same route, same
 * caller, last 24 h), the first answer is replayed; with the key seen for other content, 422.
 */
async function performWrite(db: SandboxDatabase, now: () => number, write: Write): Promise<Reply> {
  const key = idempotencyKeyOf(write.req);
  if (key === undefined) {
    return { ...(await db.write(write.perform)), headers: {}, tookEffect: true };
  }
  const request = {
    scope: keyScope(write.route, write.caller),
    key,
    digest: sha256(stringifyJson(write.content)),
    now: now(),
  };
  const outcome = await db.write(() => db.idempotent(request, write.perform));
  switch (outcome.kind) {
    case 'performed':
      return { ...outcome.response, headers: {}, tookEffect: true };
    case 'replayed':
      return { ...outcome.response, headers: { [IDEMPOTENT_REPLAYED_HEADER]: 'true' } };
    case 'key-reused':
      throw new HttpProblem(
        422,
        'idempotency_key_reused',
        'this Idempotency-Key was sent with a different body in the last 24 hours; send a new key for a new request',
      );
  }
}

/** Decodes request bodies; `fatal` makes invalid UTF-8 an error. Holds no state between calls. */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

function tooLarge(): HttpProblem {
  return new HttpProblem(413, 'payload_too_large', `the body exceeds ${MAX_BODY_BYTES} bytes`, {
    connection: 'close',
  });
}

/**
 * The request's body, collected with plain listeners (an async iterator per request cost the
 * POST path about a tenth of its time), up to MAX_BODY_BYTES.
 */
function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        req.off('data', onData);
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size)));
    req.once('error', reject);
  });
}

async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  const body = await readBody(req);
  const mediaType = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (mediaType !== 'application/json') {
    throw new HttpProblem(
      400,
      'invalid_content_type',
      'send the body with Content-Type: application/json',
    );
  }
  let text: string;
  try {
    text = UTF8.decode(body);
  } catch {
    throw new HttpProblem(400, 'invalid_json', 'the body is not valid UTF-8');
  }
  try {
    return parseJson(text);
  } catch (error) {
    throw error instanceof JsonTooDeepError
      ? new HttpProblem(400, 'invalid_body', `the body is ${error.message}`)
      : new HttpProblem(400, 'invalid_json', 'the body is not valid JSON');
  }
}

/**
 * RFC 8288 Link rel="next" to the page after the id `after`, as a reference relative to the
 * request (so it holds behind any host name); no header on the last page. The body stays the
 * plain array the interface gives.
 */
function nextPageLink(url: URL, after: string | undefined): Record<string, string> {
  if (after === undefined) return {};
  const next = new URLSearchParams(url.searchParams);
  next.set(CURSOR_PARAMETER, encodeCursor(after));
  return { link: `<${url.pathname}?${next.toString()}>; rel="next"` };
}

function createPet(db: SandboxDatabase, pet: NewPetInput): string {
  try {
    return db.createPetJson(pet.name, pet.categoryId, pet.status);
  } catch (error) {
    if (!(error instanceof IdsExhaustedError)) throw error;
    // The service is out of a resource, not broken: 507, as a full disk would be.
    throw new HttpProblem(507, 'ids_exhausted', `${error.message}; no more pets can be added`);
  }
}

interface Request {
  route: Route;
  req: IncomingMessage;
  url: URL;
  caller: string;
}

async function dispatch(
  { route, req, url, caller }: Request,
  db: SandboxDatabase,
  now: () => number,
): Promise<Reply> {
  switch (route.name) {
    case 'pets': {
      if (req.method === 'GET') {
        const query = checked(checkListQuery(url.searchParams));
        const page = db.listPetsPage(query);
        return { status: 200, body: page.json, headers: nextPageLink(url, page.nextAfter) };
      }
      const pet = checked(checkNewPet(await readJsonBody(req)));
      return performWrite(db, now, {
        req,
        caller,
        route: `POST ${API_BASE_PATH}/pets`,
        content: { name: pet.name, categoryId: pet.categoryId, status: pet.status ?? null },
        perform: () => ({ status: 201, body: createPet(db, pet) }),
      });
    }
    case 'pet': {
      const deprecation = {
        deprecation: 'true',
        sunset: GET_PET_SUNSET,
        link: `<${API_BASE_PATH}/pets>; rel="successor-version"`,
      };
      const id = checkPetId(route.petId);
      if (!id.ok) throw new HttpProblem(400, id.code, id.message, deprecation);
      const pet = db.getPetJson(id.value);
      if (pet === undefined)
        throw new HttpProblem(404, 'pet_not_found', `no pet has id ${id.value}`, deprecation);
      return { status: 200, body: pet, headers: deprecation };
    }
    case 'messages': {
      const message = checked(checkMessage(await readJsonBody(req)));
      return performWrite(db, now, {
        req,
        caller,
        route: `POST ${QUICKSTART_BASE_PATH}/messages`,
        content: { message },
        perform: () => ({ status: 202, body: stringifyJson(db.addMessage(message)) }),
      });
    }
  }
}

/** Faults that answer before the request is handled: a rate limit, a delay, a failure. */
async function faultsBefore(faults: Faults): Promise<void> {
  const wait = faults.rateLimited();
  if (wait !== undefined) {
    throw new HttpProblem(
      429,
      'rate_limited',
      `more than ${faults.settings.rateLimitPerSecond} requests per second (sandbox --rate-limit); nothing was done`,
      { 'retry-after': String(wait) },
    );
  }
  const delay = faults.latency();
  if (delay > 0) await sleep(delay);
  const status = faults.failure();
  if (status !== undefined) {
    throw new HttpProblem(
      status,
      'injected_fault',
      'the sandbox failed this request on purpose (sandbox --fail-rate); nothing was done',
      status === 503 ? { 'retry-after': '1' } : {},
    );
  }
}

/** The Animal Store interface, as the spec describes it, over node:http. */
export function createSandboxHandler(options: SandboxServiceOptions) {
  const { faults } = options;
  const now = options.now ?? Date.now;
  const nextRequestId = requestIds();
  return (req: IncomingMessage, res: ServerResponse): void => {
    const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
    const handle = async (): Promise<Reply> => {
      if (faults) await faultsBefore(faults);
      const route = matchRoute(url.pathname);
      if (!route)
        throw new HttpProblem(
          404,
          'not_found',
          `no such endpoint: ${req.method ?? ''} ${url.pathname}`,
        );
      const allowed = ROUTE_METHODS[route.name];
      if (!allowed.includes(req.method ?? '')) {
        throw new HttpProblem(
          405,
          'method_not_allowed',
          `${req.method ?? ''} is not allowed here`,
          {
            allow: allowed.join(', '),
          },
        );
      }
      const caller = authenticate(req, options.apiKeys);
      return dispatch({ route, req, url, caller }, options.db, now);
    };
    const answer = (done: Reply) => {
      if (done.tookEffect && faults?.dropsAnswer()) {
        // The write is done; the client hears only a reset: its outcome is unknown to it.
        res.socket?.resetAndDestroy();
        return;
      }
      send(res, done, nextRequestId());
    };
    handle().then(answer, (error: unknown) => {
      const problem =
        error instanceof HttpProblem
          ? error
          : new HttpProblem(500, 'internal_error', 'the sandbox failed to handle the request');
      if (res.headersSent) {
        res.destroy();
        return;
      }
      send(
        res,
        reply(
          problem.status,
          { code: problem.code, message: problem.message, status: problem.status },
          problem.headers,
        ),
        nextRequestId(),
      );
      if (problem.headers.connection === 'close') req.resume();
    });
  };
}
