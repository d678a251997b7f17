import type { Int64 } from './int64.js';

export const PET_STATUSES = ['available', 'pending', 'sold'] as const;
export type PetStatus = (typeof PET_STATUSES)[number];

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

export interface MessageReceipt {
  id: string;
  message: string;
  status: string;
  createdAt: string;
  [extra: string]: unknown;
}

export function isPetStatus(value: string): value is PetStatus {
  return (PET_STATUSES as readonly string[]).includes(value);
}
