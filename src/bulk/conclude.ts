import {
  BulkFailedError,
  CancelledError,
  InterruptedError,
  OutputClosedError,
  OutputFailedError,
} from '../core/errors.js';
import type { BulkResult } from './runner.js';
import { phrase, resume, type Phrase } from '../core/phrase.js';
import { unknownHint } from './run-errors.js';

/** What a finished run is reported with. */
export interface RunAbout {
  target: string;
  resumeCommand: string;
  journal: string;
  /** Why stdout could not be written, when it failed (not when its reader went away). */
  stdoutFailure: NodeJS.ErrnoException | undefined;
}

/**
 * The error a run ends with, or undefined when every record ended created; with the sentence
 * that sums the run up (said as a notice on success).
 */
export function concludeBulk(
  result: BulkResult,
  about: RunAbout,
): { summary: string; error: Error | undefined } {
  const { ledger } = result;
  const summary = ledger.summary(about.target);
  const { notAttempted } = ledger.counts();
  if (result.signal !== undefined) {
    const unfinished = ledger.unknownCount > 0 || notAttempted > 0;
    const hint = ledger.unknownCount
      ? unknownHint(about.resumeCommand)
      : unfinished
        ? phrase`Complete the run with: ${resume({ words: about.resumeCommand })}`
        : undefined;
    return {
      summary,
      error: new InterruptedError(`${result.signal}: ${summary}`, { signal: result.signal, hint }),
    };
  }
  if (result.reason === 'cancelled') {
    const hint = ledger.unknownCount
      ? unknownHint(about.resumeCommand)
      : notAttempted > 0
        ? phrase`Complete the run with: ${resume({ words: about.resumeCommand })}`
        : undefined;
    return { summary, error: new CancelledError(`cancelled: ${summary}`, { hint }) };
  }
  if (result.reason === 'stdout closed') {
    const { listed, more } = ledger.ids();
    const rest = more ? ` and ${more} more (every one is in the journal ${about.journal})` : '';
    const ids = listed.length ? `; created ids: ${listed.join(', ')}${rest}` : '';
    const error = about.stdoutFailure
      ? new OutputFailedError(
          about.stdoutFailure,
          `${summary}${ids}`,
          phrase`Make room or send the output elsewhere, then: ${resume({ words: about.resumeCommand })} (it prints the pets not printed yet).`,
        )
      : new OutputClosedError(`standard output was closed: ${summary}${ids}`, {
          hint: phrase`What its reader took before it went is its own; ${resume({ words: about.resumeCommand, printAll: true })} prints every created pet again.`,
        });
    return { summary, error };
  }
  if (result.fatal !== undefined) {
    return {
      summary,
      error: result.fatal instanceof Error ? result.fatal : new Error(String(result.fatal)),
    };
  }
  if (ledger.allCreated) return { summary, error: undefined };
  const failFast = result.reason === 'fail-fast' ? ' (stopped at the first failure)' : '';
  return {
    summary,
    error: new BulkFailedError(
      `${summary}${failFast}`,
      ledger.firstProblem(),
      completeHint(about.resumeCommand, ledger.counts()),
    ),
  };
}

/**
 * The one command that completes a run that did not create every record: resume, sending again
 * the unknown ones with their keys and the failed ones as new attempts, and what that means.
 */
export function completeHint(
  resumeCommand: string,
  counts: { failed: number; unknown: number; notAttempted: number },
): Phrase {
  // Unknown ones always go again, as the run's first line says it (one command everywhere): it
  // sends nothing where no record's outcome is unknown.
  const command = resume({
    words: resumeCommand,
    retryUnknown: true,
    retryFailed: counts.failed > 0,
  });
  const why = [
    counts.unknown
      ? 'the unknown ones go again with their Idempotency-Keys, so none is created twice'
      : '',
    counts.failed ? 'the failed ones as new attempts, once you have fixed what was refused' : '',
  ].filter(Boolean);
  return phrase`Complete the run with: ${command}${why.length ? ` (${why.join('; ')})` : ''}`;
}
