import type { PetstoreClient } from '../../api/client.js';
import type { RequestPreview } from '../../api/request.js';
import { UsageError } from '../../core/errors.js';
import { newPetProblem, type NewPet, type Pet } from '../../core/interface.js';

/** One pet to add, with the Idempotency-Key its write is sent with (see writeKey). */
export interface AddPetRequest {
  pet: NewPet;
  idempotencyKey: string;
}

export interface AddPetResult {
  pet: Pet;
  /** The service answered from an earlier send with the same key: no new pet was created. */
  replayed: boolean;
}

export interface AddPetEvents {
  /** The service said its answer replays an earlier send of the same key. */
  onReplayed?: () => void;
}

type PetWriter = Pick<PetstoreClient, 'createPet' | 'previewCreatePet'>;

/**
 * The client, made when first needed: the pet is checked before the service is reached, so a
 * bad pet is refused as such (exit 2) whatever the key or profile.
 */
type Connect = () => Promise<PetWriter>;

/**
 * The pet as NewPet requires it, checked before anything is sent: every front end (flags,
 * prompts, an agent's arguments) is held to the same rule. Refused: a UsageError naming what
 * is wrong.
 */
export function checkedPet(pet: NewPet): NewPet {
  const problem = newPetProblem(pet);
  if (problem)
    throw new UsageError(`the pet is not a NewPet: ${problem.message}; nothing was sent`);
  return pet;
}

/** Adds one pet (`POST /pets`) with its Idempotency-Key. */
export async function addPet(
  deps: { client: Connect },
  request: AddPetRequest,
  events: AddPetEvents = {},
): Promise<AddPetResult> {
  const answer = { replayed: false };
  const checked = checkedPet(request.pet);
  const pet = await (
    await deps.client()
  ).createPet(checked, {
    idempotencyKey: request.idempotencyKey,
    onReplayed: () => {
      answer.replayed = true;
      events.onReplayed?.();
    },
  });
  return { pet, replayed: answer.replayed };
}

/** What addPet would send, the key redacted: nothing is sent. */
export async function previewAddPet(
  deps: { client: Connect },
  request: AddPetRequest,
): Promise<RequestPreview> {
  const checked = checkedPet(request.pet);
  return (await deps.client()).previewCreatePet(checked, {
    idempotencyKey: request.idempotencyKey,
  });
}
