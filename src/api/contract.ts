import { isInt64 } from '../core/int64.js';
import { PET_STATUSES } from '../core/types.js';

/**
 * The interface's bodies as data (spec parts 3, 4.4 and 7), one source for the client's
 * decoding and for `smoke`'s contract checks. A field is required or not, of a kind, and may
 * take only some values. The client checks what it needs to decode (kinds and required
 * fields); smoke checks everything (`strict`: enumerations and timestamps too).
 */
type Kind = 'int64' | 'string' | 'integer' | 'timestamp';

interface Field {
  kind: Kind;
  required: boolean;
  /** The values the interface lists (checked when strict). */
  oneOf?: readonly string[];
}

export type Shape = Readonly<Record<string, Field>>;

const required = (kind: Kind, oneOf?: readonly string[]): Field => ({
  kind,
  required: true,
  oneOf,
});
const optional = (kind: Kind, oneOf?: readonly string[]): Field => ({
  kind,
  required: false,
  oneOf,
});

export const PET: Shape = {
  id: required('int64'),
  name: required('string'),
  categoryId: required('int64'),
  status: optional('string', PET_STATUSES),
};

export const ERROR_BODY: Shape = {
  code: required('string'),
  message: required('string'),
  status: required('integer'),
};

export const MESSAGE_RECEIPT: Shape = {
  id: required('string'),
  message: required('string'),
  status: required('string'),
  createdAt: required('timestamp'),
};

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
