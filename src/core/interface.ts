import type { Int64 } from './int64.js';
import { optional, requestProblem, required, type BodyProblem, type Shape } from './shape.js';

/**
 * The Animal Store interface's facts, each written once: its bodies (as types and as shapes),
 * its values, limits and defaults, and its deprecation. The client, the bulk engine, the
 * operations, the sandbox, smoke and the help all read them from here.
 * Where the interface says "not shown", the choice made is in contract.ts.
 */

/** PetStatus: the values of an animal's `status`. */
export const PET_STATUSES = ['available', 'pending', 'sold'] as const;
export type PetStatus = (typeof PET_STATUSES)[number];

export function isPetStatus(value: string): value is PetStatus {
  return (PET_STATUSES as readonly string[]).includes(value);
}

/** `GET /pets?limit=`: from 1 to 100; a service asked for no limit sends 20. */
export const LIST_LIMIT = { min: 1, max: 100, default: 20 } as const;

/** The deprecated `GET /pets/{petId}` and the day the service removes it (UTC). */
export const GET_PET_REMOVAL_DATE = '2030-12-05';
/** The same day as an HTTP date, as the `Sunset` header carries it. */
export const GET_PET_SUNSET = new Date(`${GET_PET_REMOVAL_DATE}T00:00:00Z`).toUTCString();

/** NewPet, the body of `POST /pets`. */
export interface NewPet {
  name: string;
  categoryId: Int64;
  status?: PetStatus;
}

/** An animal as the service returns it; unknown extra fields are kept as they came. */
export interface Pet {
  id: Int64;
  name: string;
  categoryId: Int64;
  status?: string;
  [extra: string]: unknown;
}

export interface ListPetsQuery {
  status?: PetStatus | undefined;
  limit?: number | undefined;
}

/** The answer to `POST /messages`. */
export interface MessageReceipt {
  id: string;
  message: string;
  status: string;
  createdAt: string;
  [extra: string]: unknown;
}

/**
 * NewPet as a shape. A name of blanks only is refused (the interface gives no limits of
 * `name`; a blank one is never what was meant).
 */
export const NEW_PET: Shape = {
  name: required('string', { nonBlank: true }),
  categoryId: required('int64'),
  status: optional('string', { oneOf: PET_STATUSES }),
};

/** Pet: every field of NewPet (its status as any string: a service may add values) and id. */
export const PET: Shape = {
  id: required('int64'),
  name: required('string'),
  categoryId: required('int64'),
  status: optional('string', { oneOf: PET_STATUSES }),
};

/** Error, the body of every error response. */
export const ERROR_BODY: Shape = {
  code: required('string'),
  message: required('string'),
  status: required('integer'),
};

/** The body of `POST /messages`. */
export const MESSAGE_REQUEST: Shape = { message: required('string') };

export const MESSAGE_RECEIPT: Shape = {
  id: required('string'),
  message: required('string'),
  status: required('string'),
  createdAt: required('timestamp'),
};

/** The first thing wrong with a NewPet about to be sent (or, in the sandbox, received). */
export function newPetProblem(value: unknown): BodyProblem | undefined {
  return requestProblem(NEW_PET, value, 'NewPet');
}

/** The first thing wrong with the body of `POST /messages`. */
export function messageProblem(value: unknown): BodyProblem | undefined {
  return requestProblem(MESSAGE_REQUEST, value, 'a message');
}
