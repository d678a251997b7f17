import { PetstoreError, UsageError } from '../core/errors.js';
import { ManyJournalsError } from '../operations/journal/find.js';

/** What add_pets says to do next, in the tool's own terms (its arguments, its calls). */

/** Another call (this server's, another server's or the command line's) is sending the batch. */
export class BatchBusyError extends UsageError {
  constructor(batch: string) {
    super(`batch "${batch}" is being sent by another petstore run right now; nothing was sent`);
  }
}

/** What to do about a batch that did not end whole, in the tool's own terms. */
export const resumeHint = (batch: string) =>
  `Call add_pets again with the same pets, in the same order, and batch_id "${batch}" (or, if the first call gave no batch_id, none): pets already created are not sent again, and those whose outcome is unknown are sent with their own keys.`;

/**
 * Pets the service refused: a call made again does not send them again (the batch keeps its
 * refusals), so the way on is another batch once they are fixed.
 */
export const REFUSED_HINT =
  'The service refused these pets: calling add_pets again with this batch_id does not send them again. Fix what it refused, then add them as a new batch (another batch_id) or one by one with add_pet.';

/** The way on from a batch that did not end whole: completed by calling again, or refused. */
export function endHint(
  batch: string,
  counts: { failed: number; unknown: number; notAttempted: number },
) {
  const completes = counts.unknown + counts.notAttempted > 0;
  if (counts.failed === 0) return resumeHint(batch);
  return completes ? `${resumeHint(batch)} ${REFUSED_HINT}` : REFUSED_HINT;
}

/** What to do about a batch that did not end whole, in the tool's own terms. */
export function batchHint(error: unknown, batch: string): string {
  if (error instanceof BatchBusyError) {
    return `Another call is sending batch "${batch}" now (another server, or the command line); call add_pets again with the same pets and batch_id once it has ended.`;
  }
  if (!(error instanceof UsageError)) return resumeHint(batch);
  if (error instanceof ManyJournalsError) {
    return `Batch "${batch}" was run by two servers at once. Each pet was still created at most once; give another batch_id (a new batch), and tell the person, who can keep one of its journals (petstore journal list).`;
  }
  return `Give the same pets, in the same order, as the first call of batch "${batch}", or give another batch_id to start a new batch.`;
}

/** An error of a record that may have reached the service: its outcome is unknown. */
export function mayHaveBeenSent(error: unknown): boolean {
  return error instanceof PetstoreError && error.outcomeUnknown;
}
