import { isSafeMethod, type HttpMethod } from '../../api/http.js';
import { parseIdempotencyKey } from '../../cmdutil/flags.js';
import { readInputFile } from '../../cmdutil/read-input.js';
import { UsageError } from '../../core/errors.js';
import type { IO } from '../../core/io.js';
import { parseJson, stringifyJson } from '../../core/json.js';

/** The flags of `petstore api` as commander hands them over. */
export interface ApiFlags {
  method?: string;
  /** -f and -F in the order given: `typed` for -F. */
  fields?: { typed: boolean; text: string }[];
  input?: string;
  header?: string[];
  paginate?: boolean;
  include?: boolean;
  dryRun?: boolean;
  idempotencyKey?: string;
}

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
  dryRun: boolean;
  idempotencyKey: string | undefined;
}

const METHODS: readonly HttpMethod[] = ['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE'];
/** Headers petstore sets itself; the key never goes on a command line. */
const OWN_HEADERS = new Set([
  'authorization',
  'idempotency-key',
  'host',
  'content-length',
  'user-agent',
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
  if (/^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(value)) return parseJson(value);
  if (value.startsWith('@')) return (await readInputFile(value.slice(1), io)).replace(/\n$/, '');
  return value;
}

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
          name === 'idempotency-key'
            ? 'Give it with --idempotency-key KEY.'
            : name === 'authorization'
              ? 'The key comes from the profile (or PETSTORE_API_KEY), never from the command line.'
              : undefined,
      });
    }
    parsed[name] = line.slice(at + 1).trim();
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
    input = await readInputFile(flags.input, io);
    try {
      parseJson(input);
    } catch {
      throw new UsageError(`--input ${flags.input} is not valid JSON; nothing was sent`);
    }
  }
  const method = methodOf(flags, fields.length > 0 || input !== undefined);
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
    } else body = stringifyJson(Object.fromEntries(fields));
  }
  return {
    method,
    path: fullPath,
    headers: headers(flags.header ?? []),
    body,
    paginate: flags.paginate === true,
    include: flags.include === true,
    dryRun: flags.dryRun === true,
    idempotencyKey: parseIdempotencyKey(flags.idempotencyKey),
  };
}
