import { AUTHORIZATION_HEADER } from '../core/contract.js';
import { hash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { stringifyJson } from '../core/json.js';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAYED_HEADER } from '../core/contract.js';
import type { SandboxDatabase, StoredResponse } from './database.js';
import { HttpProblem, type Reply } from './http-io.js';

/** Who may call the sandbox, and how its writes happen at most once per Idempotency-Key. */

export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

/** A 401 with the challenge RFC 6750 asks for, so clients know the scheme to use. */
function unauthorized(message: string, error?: 'invalid_request' | 'invalid_token') {
  const challenge = `Bearer realm="animal-store"${error ? `, error="${error}"` : ''}`;
  return new HttpProblem(401, 'unauthorized', message, { 'www-authenticate': challenge });
}

/** Returns the caller the request's API key stands for, once the key is known to be accepted. */
export function authenticate(req: IncomingMessage, apiKeys: ReadonlyMap<string, string>): string {
  const header = req.headers[AUTHORIZATION_HEADER];
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

/** Visible ASCII: what a header carries as it is, one byte a character. */
const KEY_PATTERN = new RegExp(`^[\\x21-\\x7e]{1,${IDEMPOTENCY_KEY_MAX_LENGTH}}$`);

/**
 * The request's Idempotency-Key: one header (two are refused, not joined into "A, B"), of 1 to
 * 255 visible ASCII characters (Node reads other bytes one character each, so a length in
 * characters would be one in bytes).
 */
function idempotencyKeyOf(req: IncomingMessage): string | undefined {
  const values = req.headersDistinct[IDEMPOTENCY_KEY_HEADER];
  if (values === undefined) return undefined;
  const [key] = values;
  if (values.length !== 1 || key === undefined || !KEY_PATTERN.test(key)) {
    throw new HttpProblem(
      400,
      'invalid_idempotency_key',
      `send one Idempotency-Key header of 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} visible ASCII characters`,
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

export interface Write {
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
export async function performWrite(
  db: SandboxDatabase,
  now: () => number,
  write: Write,
): Promise<Reply> {
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
