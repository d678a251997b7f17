import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { GET_PET_SUNSET } from '../core/interface.js';
import {
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENT_REPLAYED_HEADER,
  RETRY_AFTER_HEADER,
} from '../core/contract.js';
import { stringifyJson } from '../core/json.js';
import { authenticate, performWrite } from './caller.js';
import { DatabaseGoneError, IdsExhaustedError, type SandboxDatabase } from './database.js';
import type { Faults } from './faults.js';
import { sqliteFailure } from '../core/sqlite.js';
import {
  checked,
  drainRefusedBody,
  HttpProblem,
  readJsonBody,
  reply,
  requestIds,
  send,
  type Reply,
} from './http-io.js';
import {
  CURSOR_PARAMETER,
  encodeCursor,
  checkListQuery,
  checkMessage,
  checkNewPet,
  checkPetId,
  type NewPetInput,
} from './validate.js';

export const API_BASE_PATH = '/v1';
export const QUICKSTART_BASE_PATH = '/quickstart';
export { MAX_BODY_BYTES } from './http-io.js';
export { IDEMPOTENCY_KEY_MAX_LENGTH } from './caller.js';

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
  /** Where the server says what its operator must know (a line on its stderr). */
  log?: ((line: string) => void) | undefined;
  /** Told of every request once it is answered (or its answer dropped): `sandbox serve`'s log. */
  onRequest?: ((request: ServedRequest) => void) | undefined;
}

/** One request as the sandbox served it. */
export interface ServedRequest {
  method: string;
  /** Path and query as sent. */
  path: string;
  /** The status answered; undefined when no answer went out (dropped, or the client left). */
  status: number | undefined;
  ms: number;
  idempotencyKey: string | undefined;
  /** The answer was a replay of an earlier one with the same Idempotency-Key. */
  replayed: boolean;
  /** The W3C traceparent the request carried, as sent (a client's trace, to join logs by). */
  traceparent?: string | undefined;
}

const saidGone = new WeakSet<(line: string) => void>();

/** 503 for every write once the file is gone, and one line for the operator. */
function databaseGone(error: DatabaseGoneError, log: ((line: string) => void) | undefined) {
  if (log && !saidGone.has(log)) {
    saidGone.add(log);
    log(`${error.message}: writes are refused from now on; restart the sandbox.`);
  }
  return new HttpProblem(
    503,
    'database_gone',
    `${error.message}; no write is accepted until the sandbox is restarted`,
  );
}

/**
 * SQLite could not take its lock within the busy timeout, or another process was changing the
 * shared index (SQLITE_BUSY, SQLITE_LOCKED, SQLITE_PROTOCOL): another process holds the file.
 */
function isBusy(error: unknown): boolean {
  return sqliteFailure(error) === 'transient';
}

function databaseBusy(log: ((line: string) => void) | undefined) {
  log?.(`the sandbox's database is locked by another process; writes wait and are refused (503)`);
  return new HttpProblem(
    503,
    'database_busy',
    "the sandbox's database is locked by another process; nothing was written, try again",
    { [RETRY_AFTER_HEADER]: '1' },
  );
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
async function faultsBefore(faults: Faults, res: ServerResponse): Promise<void> {
  const wait = faults.rateLimited();
  // Every answer says what is left of the limit, the refusal too.
  for (const [name, value] of Object.entries(faults.rateLimitFields())) res.setHeader(name, value);
  if (wait !== undefined) {
    throw new HttpProblem(
      429,
      'rate_limited',
      `more than ${faults.settings.rateLimitPerSecond} requests per second (sandbox --rate-limit); nothing was done`,
      { [RETRY_AFTER_HEADER]: String(wait) },
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
      status === 503 ? { [RETRY_AFTER_HEADER]: '1' } : {},
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
    let replayed = false;
    if (options.onRequest) {
      const started = performance.now();
      const told = options.onRequest;
      res.once('close', () => {
        const key = req.headers[IDEMPOTENCY_KEY_HEADER];
        const { traceparent } = req.headers;
        told({
          traceparent: typeof traceparent === 'string' ? traceparent.slice(0, 64) : undefined,
          method: req.method ?? '',
          path: req.url ?? '/',
          status: res.writableFinished ? res.statusCode : undefined,
          ms: performance.now() - started,
          idempotencyKey: typeof key === 'string' ? key : undefined,
          replayed,
        });
      });
    }
    const handle = async (): Promise<Reply> => {
      if (faults) await faultsBefore(faults, res);
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
      replayed = done.headers[IDEMPOTENT_REPLAYED_HEADER] === 'true';
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
          : error instanceof DatabaseGoneError
            ? databaseGone(error, options.log)
            : isBusy(error)
              ? databaseBusy(options.log)
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
      if (problem.status === 413) drainRefusedBody(req);
    });
  };
}
