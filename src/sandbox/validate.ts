import { isInt64, type Int64 } from '../core/int64.js';
import {
  isPetStatus,
  LIST_LIMIT,
  messageProblem,
  newPetProblem,
  PET_STATUSES,
} from '../core/interface.js';

export const NAME_MAX_LENGTH = 256;

export type Checked<T> = { ok: true; value: T } | { ok: false; code: string; message: string };

function invalid(code: string, message: string): { ok: false; code: string; message: string } {
  return { ok: false, code, message };
}

export interface NewPetInput {
  name: string;
  categoryId: Int64;
  status: string | undefined;
}

/**
 * Characters that show nothing on their own: controls, format characters, separators, blanks,
 * default-ignorable characters (fillers, variation selectors, U+034F), combining marks with no
 * base to sit on, and the blank braille pattern.
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Z}\s\p{DI}\p{M}\u2800]/gu;

/**
 * What is wrong with a name: one the sandbox could not store as it is (a lone surrogate, which
 * SQLite would store as U+FFFD), one that shows nothing, or one past the limit, counted in
 * characters (code points) as the message says, not in UTF-16 units.
 */
function nameProblem(name: string): string | undefined {
  if (!name.isWellFormed()) return '"name" must be valid Unicode (it holds a lone surrogate)';
  if (name.replace(INVISIBLE, '') === '') return '"name" must hold a visible character';
  // Code points: a string of UTF-16 units is at most twice as long.
  const length = name.length <= NAME_MAX_LENGTH ? name.length : Array.from(name).length;
  return length > NAME_MAX_LENGTH
    ? `"name" must be at most ${NAME_MAX_LENGTH} characters`
    : undefined;
}

/** NewPet: name (1..256 characters, visible), categoryId (int64), optional status; nothing else. */
/**
 * NewPet as the interface has it (interface.ts), and what the sandbox adds where the interface
 * gives no limits of `name`: visible, storable, at most 256 characters.
 */
export function checkNewPet(body: unknown): Checked<NewPetInput> {
  const problem = newPetProblem(body);
  if (problem) return invalid(problem.code, problem.message);
  const { name, categoryId, status } = body as NewPetInput;
  const nameIs = nameProblem(name);
  if (nameIs) return invalid('invalid_name', nameIs);
  return { ok: true, value: { name, categoryId, status } };
}

export interface ListQuery {
  limit: number;
  status: string | undefined;
  /** From the opaque `cursor` of a Link rel=next: the page starts after this id. */
  after: bigint | undefined;
}

/**
 * The sandbox's page cursor: opaque to clients (they follow the Link header, never build it),
 * base64url of "after:<last id of the previous page>".
 */
export const CURSOR_PARAMETER = 'cursor';

export function encodeCursor(lastId: string): string {
  return Buffer.from(`after:${lastId}`).toString('base64url');
}

function decodeCursor(cursor: string): bigint | undefined {
  const text = /^[\w-]{1,64}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString() : '';
  const match = /^after:(-?\d{1,19})$/.exec(text);
  if (!match) return undefined;
  const id = BigInt(match[1]!);
  return isInt64(id) ? id : undefined;
}

export function checkListQuery(params: URLSearchParams): Checked<ListQuery> {
  const limitText = params.get('limit');
  let limit: number = LIST_LIMIT.default;
  if (limitText !== null) {
    limit = Number(limitText);
    if (!/^\d+$/.test(limitText) || limit < LIST_LIMIT.min || limit > LIST_LIMIT.max) {
      return invalid(
        'invalid_limit',
        `"limit" must be an integer from ${LIST_LIMIT.min} to ${LIST_LIMIT.max}`,
      );
    }
  }
  const status = params.get('status') ?? undefined;
  if (status !== undefined && !isPetStatus(status)) {
    return invalid('invalid_status', `"status" must be one of ${PET_STATUSES.join(', ')}`);
  }
  const cursor = params.get(CURSOR_PARAMETER);
  const after = cursor === null ? undefined : decodeCursor(cursor);
  if (cursor !== null && after === undefined) {
    return invalid(
      'invalid_cursor',
      `"${CURSOR_PARAMETER}" is not one this service gave; follow the Link rel="next" of the previous page`,
    );
  }
  return { ok: true, value: { limit, status, after } };
}

const INT64_PATH = /^-?\d{1,19}$/;

export function checkPetId(text: string): Checked<bigint> {
  if (INT64_PATH.test(text)) {
    const id = BigInt(text);
    if (isInt64(id)) return { ok: true, value: id };
  }
  return invalid('invalid_pet_id', '"petId" must be an int64 integer');
}

export function checkMessage(body: unknown): Checked<string> {
  const problem = messageProblem(body);
  if (problem) return invalid(problem.code, problem.message);
  return { ok: true, value: (body as { message: string }).message };
}
