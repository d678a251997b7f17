import { isInt64 } from './int64.js';

/**
 * The interface's bodies as data: a shape is its fields, each required or not, of a kind,
 * perhaps limited to some values. One language for every body, so each is written once (see
 * interface.ts) and read by the client's decoding, smoke's contract checks, the bulk engine's
 * and the operations' checks of what is about to be sent, and the sandbox's checks of what
 * it is sent. Reading an answer checks kinds and required fields (`strict`: values too);
 * checking a request body (requestProblem) also refuses fields the shape does not have.
 */
type Kind = 'int64' | 'string' | 'integer' | 'timestamp';

interface Field {
  kind: Kind;
  required: boolean;
  /** The values the interface lists (checked when strict). */
  oneOf?: readonly string[] | undefined;
  /** A string that must hold more than blanks (where the interface is silent, a choice). */
  nonBlank?: boolean | undefined;
}

export type Shape = Readonly<Record<string, Field>>;

type Limits = Pick<Field, 'oneOf' | 'nonBlank'>;

export const required = (kind: Kind, limits: Limits = {}): Field => ({
  kind,
  required: true,
  ...limits,
});
export const optional = (kind: Kind, limits: Limits = {}): Field => ({
  kind,
  required: false,
  ...limits,
});

/** One way a body breaks the interface: where (a JSONPath-like path) and what. */
export interface Violation {
  path: string;
  problem: string;
}

/** ISO 8601 date and time, as the interface says createdAt is. */
const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

function describe(value: unknown): string {
  if (value === undefined) return 'nothing (no body)';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'bigint') return `the number ${value}`;
  if (typeof value === 'number') return `the number ${value}`;
  if (typeof value === 'string') return `the string ${JSON.stringify(value.slice(0, 40))}`;
  return `a ${typeof value}`;
}

function fieldProblem(field: Field, value: unknown, strict: boolean): string | undefined {
  switch (field.kind) {
    case 'int64':
      if (isInt64(value)) return undefined;
      return typeof value === 'number' && Number.isInteger(value)
        ? `${describe(value)} is past 2^53 and was not sent exactly (an int64 must keep every digit)`
        : `is not an int64: ${describe(value)}`;
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value)
        ? undefined
        : `is not an integer: ${describe(value)}`;
    case 'string':
    case 'timestamp': {
      if (typeof value !== 'string') return `is not a string: ${describe(value)}`;
      if (field.nonBlank && value.trim() === '') return `is blank: ${describe(value)}`;
      if (!strict) return undefined;
      if (field.kind === 'timestamp' && !ISO_8601.test(value)) {
        return `is not an ISO 8601 timestamp: ${describe(value)}`;
      }
      if (field.oneOf && !field.oneOf.includes(value)) {
        return `is ${describe(value)}, not one of ${field.oneOf.join(', ')}`;
      }
      return undefined;
    }
  }
}

/** Every way `value` breaks `shape`, each with its path under `at`. */
export function violations(shape: Shape, value: unknown, at = '$', strict = true): Violation[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return [{ path: at, problem: `is not an object: ${describe(value)}` }];
  }
  const fields = value as Record<string, unknown>;
  const found: Violation[] = [];
  for (const [name, field] of Object.entries(shape)) {
    const path = `${at}.${name}`;
    if (fields[name] === undefined) {
      if (field.required) found.push({ path, problem: 'is missing' });
      continue;
    }
    const problem = fieldProblem(field, fields[name], strict);
    if (problem) found.push({ path, problem });
  }
  return found;
}

/** Every way `value` breaks "an array of `shape`". */
export function listViolations(shape: Shape, value: unknown, strict = true): Violation[] {
  if (!Array.isArray(value)) return [{ path: '$', problem: 'is not an array' }];
  return value.flatMap((item, index) => violations(shape, item, `$[${index}]`, strict));
}

/** "$.status is missing" for the first violations, as one line. */
export function describeViolations(found: readonly Violation[], max = 3): string {
  const shown = found.slice(0, max).map(({ path, problem }) => `${path} ${problem}`);
  const more = found.length > max ? ` (and ${found.length - max} more)` : '';
  return shown.join('; ') + more;
}

/** What is wrong with a request body, as a service would say it: a code and a message. */
export interface BodyProblem {
  code: string;
  message: string;
}

/** What a field must be, in words: "an int64 integer", "one of a, b, c". */
function rule(field: Field): string {
  if (field.oneOf) return `one of ${field.oneOf.join(', ')}`;
  switch (field.kind) {
    case 'int64':
      return 'an int64 integer';
    case 'integer':
      return 'an integer';
    case 'timestamp':
      return 'an ISO 8601 timestamp';
    case 'string':
      return field.nonBlank ? 'a non-empty string' : 'a string';
  }
}

const snakeCase = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/**
 * The first thing wrong with a request body of `shape` (called `body`, e.g. NewPet), checked
 * strictly and closed: a field the shape does not have is refused, as what would be sent is not
 * what was meant. Codes as the sandbox answers them: invalid_body, unknown_field,
 * missing_field, invalid_<field> (invalid_category_id).
 */
export function requestProblem(
  shape: Shape,
  value: unknown,
  body: string,
): BodyProblem | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { code: 'invalid_body', message: `the body must be a JSON object (${body})` };
  }
  const fields = value as Record<string, unknown>;
  const unknown = Object.keys(fields).filter((name) => !Object.hasOwn(shape, name));
  if (unknown.length > 0) {
    return {
      code: 'unknown_field',
      message: `unknown field(s): ${unknown.join(', ')}; ${body} has ${Object.keys(shape).join(', ')}`,
    };
  }
  for (const [name, field] of Object.entries(shape)) {
    if (fields[name] === undefined) {
      if (field.required) return { code: 'missing_field', message: `"${name}" is required` };
      continue;
    }
    const given = fields[name];
    if (fieldProblem(field, given, true) !== undefined) {
      return { code: `invalid_${snakeCase(name)}`, message: `"${name}" must be ${rule(field)}` };
    }
    // Half of a character cannot be sent as UTF-8: a service would store U+FFFD or refuse it.
    if (typeof given === 'string' && !given.isWellFormed()) {
      return {
        code: `invalid_${snakeCase(name)}`,
        message: `"${name}" must be valid Unicode (it holds a lone surrogate, half of a character)`,
      };
    }
  }
  return undefined;
}
