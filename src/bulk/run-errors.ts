import { ApiError, ConfigError, MissingCredentialError, UsageError } from '../core/errors.js';
import { errorIdentity } from '../core/error-identity.js';
import { phrase, resume, type Phrase } from '../core/phrase.js';
import type { ErrorSummary } from './journal-entries.js';

/** How a bulk run sorts and words the errors of its records. */

/** Failures that every record would meet alike: bad settings, no key, a key refused. */
export function concernsWholeRun(error: unknown): boolean {
  return (
    error instanceof UsageError ||
    error instanceof ConfigError ||
    error instanceof MissingCredentialError ||
    (error instanceof ApiError && (error.status === 401 || error.status === 403))
  );
}

/** What the journal keeps of an error: its contract fields. */
export function summarize(error: unknown): ErrorSummary {
  return errorIdentity(error);
}

export function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(`unexpected failure: ${String(error)}`);
}

export function unknownHint(resumeCommand: string): Phrase {
  return phrase`Each may or may not have been created. Resume with: ${resume({ words: resumeCommand, retryUnknown: true })} (it sends each again with its Idempotency-Key; a service that honours the key creates nothing twice).`;
}
