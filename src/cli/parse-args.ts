import { isPetStatus, PET_STATUSES, type PetStatus } from '../api/types.js';
import { UsageError } from '../errors.js';

export const LIMIT_MIN = 1;
export const LIMIT_MAX = 100;

/** --limit: a whole number from 1 to 100 (the interface's range). */
export function parseLimit(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!/^\d+$/.test(text.trim()) || value < LIMIT_MIN || value > LIMIT_MAX) {
    throw new UsageError(
      `--limit must be a whole number from ${LIMIT_MIN} to ${LIMIT_MAX}, got "${text}"`,
    );
  }
  return value;
}

/** --status: one of the interface's PetStatus values. */
export function parseStatus(text: string | undefined): PetStatus | undefined {
  if (text === undefined) return undefined;
  if (!isPetStatus(text)) {
    throw new UsageError(`--status must be one of ${PET_STATUSES.join(', ')}, got "${text}"`);
  }
  return text;
}
