import { AUTHORIZATION_HEADER, IDEMPOTENCY_KEY_HEADER } from '../../core/contract.js';
import { isSafeMethod, type HttpMethod } from '../../api/http.js';
import type { ApiFlags } from './api-flags.js';
import { readInputFile } from '../../cmdutil/read-input.js';
import { UsageError } from '../../core/errors.js';
import type { IO } from '../../core/io.js';
import { JsonTooDeepError, MAX_JSON_DEPTH, parseJson, stringifyJson } from '../../core/json.js';

/** The flags of `petstore api` as commander hands them over. */
/** One request to send, fields and body decided. */
export interface ApiSpec {
  method: HttpMethod;
  /** The path as given, with the fields a GET carries added to its query. */
  path: string;
  headers: Record<string, string>;
  /** JSON text. */
  body: string | undefined;
  paginate: boolean;
  include: boolean;
  /** --raw: a text body as the service sent it. */
  raw: boolean;
  dryRun: boolean;
  idempotencyKey: string | undefined;
  /** -f/-F fields made the request a POST, no -X given: they went in the body, not the query. */
  fieldsMadePost: boolean;
}

const METHODS: readonly HttpMethod[] = ['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE'];
/** Headers petstore sets itself; the key never goes on a command line. */
const OWN_HEADERS = new Set([
  AUTHORIZATION_HEADER,
  IDEMPOTENCY_KEY_HEADER,
  'host',
  'content-length',
  'user-agent',
]);

/**
 * Headers about the connection, not the request (RFC 9110 7.6.1), and Expect: undici manages
 * them or cannot send them; set by hand they would change how the request travels, or it
 * would not leave at all. Proxy credentials come from the proxy URL, never a header.
 */
const CONNECTION_HEADERS = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'expect',
  'proxy-authorization',
]);

function field(text: string, flag: string): [string, string] {
  const at = text.indexOf('=');
  if (at <= 0) {
    throw new UsageError(`${flag} takes key=value, got "${text}"`, {
      hint: `e.g. ${flag} name=Rex`,
    });
  }
  return [text.slice(0, at), text.slice(at + 1)];
}

/**
 * A typed value (-F), as `gh api` reads one: true, false and null as such, a number as JSON
 * reads it (an int64 digit for digit), @FILE as the file's text, anything else as a string.
 */
async function typedValue(value: string, io: IO): Promise<unknown> {
  if (value === 'true' || value === 'false' || value === 'null') return JSON.parse(value);
  // Sent as typed, digit for digit: -0 stays -0, a long fraction keeps every digit, and an
  // integer past int64 reaches the service as given (its answer says what it makes of it).
  if (/^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(value)) return JSON.rawJSON(value);
  if (value.startsWith('@')) {
    const use = {
      flag: '-F NAME=@',
      piped: 'echo Rex | petstore api /pets -F name=@- -F categoryId=1',
    };
    return (await readInputFile(value.slice(1), io, use)).replace(/\n$/, '');
  }
  return value;
}

/** -H lines as headers; a name given again adds its value (joined as HTTP joins a list). */
function headers(lines: readonly string[]): Record<string, string> {
  const parsed: Record<string, string> = {};
  for (const line of lines) {
    const at = line.indexOf(':');
    const name = at > 0 ? line.slice(0, at).trim().toLowerCase() : '';
    if (!/^[!#$%&'*+.^_`|~0-9a-z-]+$/.test(name)) {
      throw new UsageError(`-H takes 'Name: value', got "${line}"`);
    }
    if (OWN_HEADERS.has(name)) {
      throw new UsageError(`-H ${name} is set by petstore`, {
        hint:
          name === IDEMPOTENCY_KEY_HEADER
            ? 'Give it with --idempotency-key KEY.'
            : name === AUTHORIZATION_HEADER
              ? 'The key comes from the profile (or PETSTORE_API_KEY), never from the command line.'
              : undefined,
      });
    }
    if (CONNECTION_HEADERS.has(name)) {
      throw new UsageError(`-H ${name} is about the connection, which petstore manages`, {
        hint:
          name === 'proxy-authorization'
            ? 'Put the proxy’s user and password in HTTPS_PROXY (http://user:password@host:port).'
            : 'Leave it out: nothing was sent.',
      });
    }
    const value = line.slice(at + 1).trim();
    const earlier = parsed[name];
    parsed[name] =
      earlier === undefined ? value : `${earlier}${name === 'cookie' ? '; ' : ', '}${value}`;
  }
  return parsed;
}

function methodOf(flags: ApiFlags, hasBody: boolean): HttpMethod {
  // --paginate follows a list: a GET, whose fields are its query.
  if (flags.method === undefined) return hasBody && !flags.paginate ? 'POST' : 'GET';
  const method = flags.method.toUpperCase() as HttpMethod;
  if (!METHODS.includes(method)) {
    throw new UsageError(`-X must be one of ${METHODS.join(', ')}, got "${flags.method}"`);
  }
  return method;
}

/**
 * The request the flags describe, as `gh api` reads them: -f/-F fields are query parameters of
 * a GET (and of any request whose body is --input), else the JSON body; GET by default, POST
 * when there are fields or a body (but for --paginate, which follows the pages of a GET).
 */
export async function toApiSpec(path: string, flags: ApiFlags, io: IO): Promise<ApiSpec> {
  const fields: [string, unknown][] = [];
  for (const { typed, text } of flags.fields ?? []) {
    const [key, value] = field(text, typed ? '-F' : '-f');
    fields.push([key, typed ? await typedValue(value, io) : value]);
  }
  if (flags.input !== undefined && flags.method !== undefined) {
    const asked = flags.method.toUpperCase() as HttpMethod;
    if (METHODS.includes(asked) && isSafeMethod(asked)) {
      throw new UsageError(`--input sends a body, which ${asked} has none of`, {
        hint: 'Leave -X out (POST), or give -X POST, PUT or PATCH.',
      });
    }
  }
  let input: string | undefined;
  if (flags.input !== undefined) {
    input = await readInputFile(flags.input, io, {
      flag: '--input',
      piped: `echo '{"name":"Rex","categoryId":1}' | petstore api /pets --input -`,
    });
    try {
      parseJson(input);
    } catch (error) {
      throw new UsageError(
        error instanceof JsonTooDeepError
          ? `--input ${flags.input} is JSON nested more than ${MAX_JSON_DEPTH} levels deep; nothing was sent`
          : `--input ${flags.input} is not valid JSON; nothing was sent`,
      );
    }
  }
  const method = methodOf(flags, fields.length > 0 || input !== undefined);
  if (flags.idempotencyKey !== undefined && isSafeMethod(method)) {
    throw new UsageError(`--idempotency-key names a write; a ${method} carries none`, {
      hint: 'Leave it out, or give -X POST, PUT, PATCH or DELETE.',
    });
  }
  const inQuery = isSafeMethod(method) || input !== undefined;
  if (flags.paginate && method !== 'GET') {
    throw new UsageError('--paginate follows the pages of a GET', { hint: 'Leave -X out.' });
  }
  let fullPath = path;
  let body = input;
  if (fields.length > 0) {
    if (inQuery) {
      const query = new URLSearchParams();
      for (const [key, value] of fields) {
        // A typed value as its JSON text (an int64 digit for digit); null as nothing.
        query.append(
          key,
          typeof value === 'string' ? value : value === null ? '' : stringifyJson(value),
        );
      }
      fullPath = `${path}${path.includes('?') ? '&' : '?'}${query.toString()}`;
    } else body = stringifyJson(bodyOf(fields));
  }
  return {
    method,
    path: fullPath,
    headers: headers(flags.header ?? []),
    body,
    paginate: flags.paginate === true,
    include: flags.include === true,
    raw: flags.raw === true,
    dryRun: flags.dryRun === true,
    idempotencyKey: flags.idempotencyKey,
    fieldsMadePost:
      flags.method === undefined && method === 'POST' && fields.length > 0 && input === undefined,
  };
}

/**
 * The JSON body of -f/-F fields, as `gh api` builds one: `key=v`, `key[]=v` appended to a
 * list, `key[sub]=v` (any depth, `a[b][]=v` too) into an object. A plain key given twice, or a
 * key used both as a value and as a list or object, is refused rather than one value lost.
 */
function bodyOf(fields: readonly [string, unknown][]): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  // The lists and objects the names built: a value given as a field is never one of them.
  const built = new WeakSet<object>([body]);
  for (const [key, value] of fields) {
    const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
    if (!match) throw new UsageError(`field name "${key}" is not name, name[] or name[sub]`);
    const path = [match[1]!, ...[...match[2]!.matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1]!)];
    let node: Record<string, unknown> | unknown[] = body;
    path.forEach((part, depth) => {
      const last = depth === path.length - 1;
      const clash = () =>
        new UsageError(`field ${key} clashes with another field of the same name`, {
          hint: 'Give a list as name[]=value, each value once; an object as name[key]=value.',
        });
      if (part === '') {
        if (!Array.isArray(node)) throw clash();
        if (last) node.push(value);
        else {
          // As gh api: a[][id]=1 a[][name]=x is one object; a key the last object already
          // has starts the next one.
          const previous: unknown = node.at(-1);
          const key = path[depth + 1]!;
          const reuse =
            typeof previous === 'object' &&
            previous !== null &&
            built.has(previous) &&
            !Array.isArray(previous) &&
            key !== '' &&
            depth + 2 === path.length &&
            !Object.hasOwn(previous, key);
          if (reuse) node = previous as Record<string, unknown>;
          else {
            const child = {};
            built.add(child);
            node.push(child);
            node = child;
          }
        }
        return;
      }
      if (Array.isArray(node)) throw clash();
      const wantList = !last && path[depth + 1] === '';
      const existing = node[part];
      if (last) {
        if (existing !== undefined) throw clash();
        node[part] = value;
        return;
      }
      if (existing === undefined) {
        const child = wantList ? [] : {};
        built.add(child);
        node[part] = child;
      } else if (!built.has(existing as object) || Array.isArray(existing) !== wantList) {
        throw clash();
      }
      node = node[part] as Record<string, unknown> | unknown[];
    });
  }
  return body;
}
