import { Transform, type Readable } from 'node:stream';
import { parseJSONRPCMessage } from '@modelcontextprotocol/server';
import { snippet } from '../core/sanitize.js';

/** The longest line taken (as the SDK's own buffer): a longer one is dropped, with a word. */
const MAX_LINE_BYTES = 10 * 1024 * 1024;

type Id = string | number;
const isId = (value: unknown): value is Id =>
  typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));

/** A key anywhere in the message that would set an object's prototype. */
const HALF_CHARACTER = 'holding a lone surrogate (half of a character), which is not valid Unicode';

/**
 * What no tool takes anywhere in a message: a "__proto__" member, or a string or member name
 * holding half of a character (a lone surrogate, which JSON's \\u escapes can carry): the JSON
 * form of a line that is not UTF-8, refused as one.
 */
function badMember(value: unknown, depth = 0): string | undefined {
  if (typeof value === 'string') return value.isWellFormed() ? undefined : HALF_CHARACTER;
  if (typeof value !== 'object' || value === null || depth > 64) return undefined;
  if (Object.hasOwn(value, '__proto__')) return 'holding a "__proto__" member, which no tool takes';
  for (const [name, item] of Object.entries(value)) {
    if (!name.isWellFormed()) return HALF_CHARACTER;
    const why = badMember(item, depth + 1);
    if (why !== undefined) return why;
  }
  return undefined;
}

/** Why a message is no JSON-RPC 2.0 request, response or notification MCP takes, if it is not. */
function invalidity(message: unknown): string | undefined {
  if (Array.isArray(message)) return 'a batch (MCP takes one message a line)';
  const bad = badMember(message);
  if (bad !== undefined) return bad;
  if (typeof message !== 'object' || message === null) return 'not a JSON object';
  const fields = message as Record<string, unknown>;
  if (fields.jsonrpc !== '2.0') return 'not JSON-RPC 2.0 ("jsonrpc": "2.0" missing)';
  if ('id' in fields && !isId(fields.id)) return 'its id is neither a string nor a number';
  if ('method' in fields) {
    if (typeof fields.method !== 'string') return 'its method is not a string';
    const params = fields.params;
    if ('params' in fields && (typeof params !== 'object' || params === null)) {
      return 'its params are not an object';
    }
  } else if (!('result' in fields) && !('error' in fields)) {
    return 'neither a request nor a response';
  }
  // Then the SDK's own reading of a message: what it would drop unanswered is answered here.
  try {
    parseJSONRPCMessage(message);
  } catch (error) {
    return `not a JSON-RPC message MCP takes (${snippet(error instanceof Error ? error.message : String(error), 60)})`;
  }
  return undefined;
}

/** What the line reader tells the server, and asks of it. */
export interface LineEvents {
  log(line: string): void;
  reply(line: string): void;
  /** A request with this id came in (it is open until answered). */
  opened(id: unknown): void;
  /** The client cancelled the request with this id: it gets no answer (the protocol's rule). */
  cancelled(id: unknown): void;
  /** Whether new requests are taken: false once the server is stopping (a signal). */
  accepting(): boolean;
}

/** The id a `notifications/cancelled` names, if the message is one. */
function cancelledId(message: { method?: unknown; params?: unknown }): Id | undefined {
  if (message.method !== 'notifications/cancelled') return undefined;
  const requestId = (message.params as { requestId?: unknown } | undefined)?.requestId;
  return isId(requestId) ? requestId : undefined;
}

/**
 * The client's lines, each checked before the SDK sees it. One that is no JSON-RPC message is
 * reported on stderr (the person running the server sees what the client got wrong) and, as
 * JSON-RPC asks, answered with an error (its id when it has a usable one, else null) so that
 * a client waiting on it is not left hanging; the server goes on with the lines after it.
 * Lines are cut at their newline byte and only then decoded, whole, so a character whose bytes
 * two reads split stays one character; a line that is not UTF-8 is a parse error, never text
 * with U+FFFD in it.
 */
export function protocolIn(stdin: Readable, out: LineEvents): Readable {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  /** The rest of a line too long to take is skipped, up to its newline. */
  let dropping = false;
  const refuse = (id: unknown, code: number, why: string, text: string) => {
    out.log(`ignored a line that is ${why}: ${snippet(text, 80)}`);
    const error = { code, message: code === -32700 ? 'Parse error' : `Invalid Request: ${why}` };
    out.reply(`${JSON.stringify({ jsonrpc: '2.0', id: isId(id) ? id : null, error })}\n`);
  };
  const take = (message: Record<string, unknown>, text: string, into: Transform) => {
    const { id, method } = message;
    const cancelled = cancelledId(message);
    if (cancelled !== undefined) out.cancelled(cancelled);
    if (id !== undefined && method !== undefined) {
      if (!out.accepting()) {
        const error = { code: -32000, message: 'The server is stopping: it takes no new request' };
        out.reply(`${JSON.stringify({ jsonrpc: '2.0', id, error })}\n`);
        return;
      }
      out.opened(id);
    }
    into.push(`${text}\n`);
  };
  const check = (bytes: Buffer, into: Transform) => {
    let line: string;
    try {
      line = decoder.decode(bytes);
    } catch {
      refuse(null, -32700, 'not UTF-8', bytes.toString('latin1'));
      return;
    }
    const text = line.endsWith('\r') ? line.slice(0, -1) : line;
    if (text.trim() === '') return;
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      refuse(null, -32700, 'not JSON', text);
      return;
    }
    const why = invalidity(message);
    if (why === undefined) {
      take(message as Record<string, unknown>, text, into);
      return;
    }
    // A batch: each request in it is answered, by its id.
    if (Array.isArray(message)) {
      const ids = message.flatMap((item: unknown) =>
        typeof item === 'object' && item !== null && isId((item as { id?: unknown }).id)
          ? [(item as { id: Id }).id]
          : [],
      );
      for (const id of ids.length > 0 ? ids : [null]) refuse(id, -32600, why, text);
      return;
    }
    const fields = (typeof message === 'object' && message) || {};
    // A notification (no id) is never answered, even in error.
    if (!('id' in fields) && 'method' in fields) {
      out.log(`ignored a notification that is ${why}: ${snippet(text, 80)}`);
      return;
    }
    refuse((fields as { id?: unknown }).id, -32600, why, text);
  };
  const lines = new Transform({
    transform(chunk: Buffer | string, _encoding, done) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
      let start = 0;
      // A newline byte (0x0a) is never part of a longer UTF-8 character: cutting there is safe.
      for (let end = bytes.indexOf(0x0a, start); end >= 0; end = bytes.indexOf(0x0a, start)) {
        const piece = bytes.subarray(start, end);
        const line = pending.length > 0 ? Buffer.concat([...pending, piece]) : piece;
        pending = [];
        pendingBytes = 0;
        if (dropping) dropping = false;
        else check(line, this);
        start = end + 1;
      }
      if (start < bytes.length && !dropping) {
        pending.push(bytes.subarray(start));
        pendingBytes += bytes.length - start;
        if (pendingBytes > MAX_LINE_BYTES) {
          out.log(`ignored a line longer than ${MAX_LINE_BYTES} bytes`);
          refuse(null, -32600, `longer than ${MAX_LINE_BYTES} bytes`, '');
          pending = [];
          pendingBytes = 0;
          dropping = true;
        }
      }
      done();
    },
    flush(done) {
      if (!dropping && pendingBytes > 0) check(Buffer.concat(pending), this);
      done();
    },
  });
  return stdin.pipe(lines);
}
