import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { JsonTooDeepError, parseJson, stringifyJson } from '../core/json.js';
import { GET_PET_SUNSET } from '../core/contract.js';
import { IdsExhaustedError, type SandboxDatabase } from './database.js';
import {
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
  apiKeys: ReadonlySet<string>;
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

function matchRoute(path: string): Route | undefined {
  if (path === `${API_BASE_PATH}/pets`) return { name: 'pets' };
  const pet = new RegExp(`^${API_BASE_PATH}/pets/([^/]+)$`).exec(path);
  if (pet) return { name: 'pet', petId: decodeURIComponent(pet[1]!) };
  if (path === `${QUICKSTART_BASE_PATH}/messages`) return { name: 'messages' };
  return undefined;
}

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const text = stringifyJson(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    'x-request-id': randomUUID(),
    ...headers,
  });
  res.end(text);
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

function authenticate(req: IncomingMessage, apiKeys: ReadonlySet<string>): void {
  const header = req.headers.authorization;
  if (header === undefined || header === '') {
    throw unauthorized('missing API key: send Authorization: Bearer <API_KEY>');
  }
  const match = /^Bearer (\S+)$/.exec(header);
  if (!match) {
    throw unauthorized('the Authorization header must be "Bearer <API_KEY>"', 'invalid_request');
  }
  if (!apiKeys.has(match[1]!)) throw unauthorized('API key invalid', 'invalid_token');
}

async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > MAX_BODY_BYTES) {
    throw new HttpProblem(413, 'payload_too_large', `the body exceeds ${MAX_BODY_BYTES} bytes`, {
      connection: 'close',
    });
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) {
      throw new HttpProblem(413, 'payload_too_large', `the body exceeds ${MAX_BODY_BYTES} bytes`, {
        connection: 'close',
      });
    }
    chunks.push(chunk as Buffer);
  }
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
    text = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
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

function createPet(db: SandboxDatabase, pet: NewPetInput) {
  try {
    return db.createPet(pet.name, pet.categoryId, pet.status);
  } catch (error) {
    if (!(error instanceof IdsExhaustedError)) throw error;
    // The service is out of a resource, not broken: 507, as a full disk would be.
    throw new HttpProblem(507, 'ids_exhausted', `${error.message}; no more pets can be added`);
  }
}

async function dispatch(
  route: Route,
  req: IncomingMessage,
  url: URL,
  res: ServerResponse,
  db: SandboxDatabase,
) {
  switch (route.name) {
    case 'pets':
      if (req.method === 'GET') {
        const query = checked(checkListQuery(url.searchParams));
        send(res, 200, db.listPets(query.limit, query.status));
      } else {
        const pet = checked(checkNewPet(await readJsonBody(req)));
        send(res, 201, createPet(db, pet));
      }
      return;
    case 'pet': {
      const deprecation = {
        deprecation: 'true',
        sunset: GET_PET_SUNSET,
        link: `<${API_BASE_PATH}/pets>; rel="successor-version"`,
      };
      const id = checkPetId(route.petId);
      if (!id.ok) throw new HttpProblem(400, id.code, id.message, deprecation);
      const pet = db.getPet(id.value);
      if (!pet)
        throw new HttpProblem(404, 'pet_not_found', `no pet has id ${id.value}`, deprecation);
      send(res, 200, pet, deprecation);
      return;
    }
    case 'messages': {
      const message = checked(checkMessage(await readJsonBody(req)));
      send(res, 202, db.addMessage(message));
      return;
    }
  }
}

/** The Animal Store interface, as the spec describes it, over node:http. */
export function createSandboxHandler(options: SandboxServiceOptions) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
    const handle = async () => {
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
      authenticate(req, options.apiKeys);
      await dispatch(route, req, url, res, options.db);
    };
    handle().catch((error: unknown) => {
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
        problem.status,
        { code: problem.code, message: problem.message, status: problem.status },
        problem.headers,
      );
      if (problem.headers.connection === 'close') req.resume();
    });
  };
}
