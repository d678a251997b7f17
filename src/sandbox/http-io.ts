import { REQUEST_ID_HEADER } from '../core/contract.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { firstDuplicateKey, JsonTooDeepError, parseJson, stringifyJson } from '../core/json.js';
import { randomHex } from '../core/random-hex.js';
import type { Checked } from './validate.js';

/** How a sandbox request is read and answered: bodies, replies, problems, request ids. */

export const MAX_BODY_BYTES = 64 * 1024;

/** An answer, built before it is sent, so a fault can still decide not to send it. */
export interface Reply {
  status: number;
  /** JSON text. */
  body: string;
  headers: Record<string, string>;
  /** A write that took effect now (not an error, not a replay). */
  tookEffect?: boolean;
}

export function reply(status: number, body: unknown, headers: Record<string, string> = {}): Reply {
  return { status, body: stringifyJson(body), headers };
}

export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/**
 * X-Request-Id values: unique per server (a random prefix made at start, then a count), and
 * made without node:crypto, which an in-process sandbox would otherwise load for them.
 */
export function requestIds(): () => string {
  const prefix = `req_${randomHex(8)}_`;
  let count = 0;
  return () => `${prefix}${(++count).toString(36)}`;
}

export function send(res: ServerResponse, { status, body, headers }: Reply, requestId: string) {
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    [REQUEST_ID_HEADER]: requestId,
    ...headers,
  });
  res.end(body);
}

export function checked<T>(result: Checked<T>): T {
  if (!result.ok) throw new HttpProblem(400, result.code, result.message);
  return result.value;
}

/** Decodes request bodies; `fatal` makes invalid UTF-8 an error. Holds no state between calls. */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** The most of a refused body read and dropped (drainRefusedBody) before the connection goes. */
const DRAIN_MAX_BYTES = 64 * 1024 * 1024;

/**
 * Answered at once, with the connection kept open (drainRefusedBody): a connection closed while
 * the client still sends is reset, and a reset can reach the client before the answer does.
 */
function tooLarge(): HttpProblem {
  return new HttpProblem(413, 'payload_too_large', `the body exceeds ${MAX_BODY_BYTES} bytes`);
}

/**
 * Reads and drops the rest of a body refused before its end (413), so the client sending it
 * reads the answer rather than a reset, as a careful server does. Past DRAIN_MAX_BYTES the
 * connection is dropped: nothing is owed to a body of any size.
 */
export function drainRefusedBody(req: IncomingMessage): void {
  let drained = 0;
  req.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > DRAIN_MAX_BYTES) req.socket.destroy();
  });
  req.resume();
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

export async function readJsonBody(req: IncomingMessage): Promise<unknown> {
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
  let value: unknown;
  try {
    value = parseJson(text);
  } catch (error) {
    throw error instanceof JsonTooDeepError
      ? new HttpProblem(400, 'invalid_body', `the body is ${error.message}`)
      : new HttpProblem(400, 'invalid_json', 'the body is not valid JSON');
  }
  // JSON.parse keeps the last of two equal keys: storing that would not be what was sent.
  const twice = firstDuplicateKey(text);
  if (twice !== undefined) {
    throw new HttpProblem(
      400,
      'duplicate_field',
      `the body gives the field ${JSON.stringify(twice)} twice; give each field once`,
    );
  }
  return value;
}
