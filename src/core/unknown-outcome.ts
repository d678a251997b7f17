import { command, joinHints, option, phrase, type Hint } from './phrase.js';

/** What a write that got no answer may have done, and what to know before sending it again. */
export interface UnknownOutcome {
  what: string;
  /** The risk of sending it again, said after how to do so safely. */
  hint: Hint;
}

export const UNKNOWN_PET_OUTCOME: UnknownOutcome = {
  what: 'the pet may or may not have been created',
  hint: phrase`A service that ignores Idempotency-Key would create it twice: if unsure, check first with ${command('pets list')}.`,
};

export const UNKNOWN_MESSAGE_OUTCOME: UnknownOutcome = {
  what: 'the message may or may not have been queued',
  hint: 'A service that ignores Idempotency-Key would queue it twice.',
};

/** How to send a write of unknown outcome again without doing it twice, and the risk left. */
export function resendHint(unknown: UnknownOutcome, idempotencyKey: string | undefined): Hint {
  if (idempotencyKey === undefined) return unknown.hint;
  return joinHints(
    phrase`To send it again safely, run the same command with ${option('idempotencyKey', idempotencyKey)}: a service that honours the key answers with what it did the first time instead of doing it twice.`,
    unknown.hint,
  );
}

/** Said when the service answers a write with its replay of an earlier send of the same key. */
export function replayedNotice(what: 'pet' | 'message'): string {
  const done = what === 'pet' ? 'no new pet was created' : 'no new message was queued';
  return `The service had already received this request (same Idempotency-Key): this is its answer from then; ${done}.`;
}
