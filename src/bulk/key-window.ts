import { command, option, phrase } from '../core/phrase.js';
import { durationText } from '../core/duration.js';
import { UsageError } from '../core/errors.js';

const SHOWN = 20;
import type { KeySent, RecordState } from './record-states.js';

/**
 * Exactly once across time: a service keeps an Idempotency-Key for a while (its window), then
 * forgets it, and the same key sent again creates the record a second time. A run that would
 * send again a key an earlier run sent (a record of unknown outcome, --retry-unknown) checks
 * first how long ago that key was first sent: by this machine's clock, and by the service's
 * where the journal and the service both say it.
 */

/** How long the service keeps keys, the margin kept from its end, and the user's override. */
export interface KeyWindow {
  windowMs: number;
  marginMs: number;
  /** --ignore-key-window: send them anyway. */
  ignore: boolean;
}

/** A record the run would send again, and when its key was first sent. */
export interface ResentKey {
  record: number;
  keySent: KeySent;
}

/**
 * The records a run with --retry-unknown sends again under a key an earlier run of the journal
 * sent: those of unknown outcome, as the journal's states say (in record order).
 */
export function* resentKeys(states: Iterable<[number, RecordState]>): Generator<ResentKey> {
  for (const [record, state] of states) {
    if (state.outcome === 'unknown') yield { record, keySent: state.keySent };
  }
}

/**
 * How long ago the key was first sent, by each clock known; NaN where a time is unreadable.
 * By the service's: from its own time of the send where the journal holds it, else from this
 * machine's (a clock set back since, or forward, shows then against the service's now).
 */
function ages(keySent: KeySent, now: { local: number; service?: number | undefined }): number[] {
  const local = now.local - keySent.at;
  if (now.service === undefined) return [local];
  return [local, now.service - (keySent.byService ?? keySent.at)];
}

/** Keys past the window (less its margin) by any clock known: how many, the first, the oldest. */
export interface Expired {
  count: number;
  /** The first records (in record order), at most SHOWN. */
  records: number[];
  oldestMs: number;
}

export function expiredKeys(
  resent: Iterable<ResentKey>,
  now: { local: number; service?: number | undefined },
  window: KeyWindow,
): Expired {
  const limit = window.windowMs - window.marginMs;
  const expired: Expired = { count: 0, records: [], oldestMs: -Infinity };
  for (const { record, keySent } of resent) {
    const age = Math.max(...ages(keySent, now));
    // A time that cannot be read is taken as past the window: safe, and said so.
    if (age <= limit) continue;
    expired.count++;
    if (expired.records.length < SHOWN) expired.records.push(record);
    // A time that cannot be read is the oldest of all.
    expired.oldestMs = Number.isNaN(age) ? NaN : Math.max(expired.oldestMs, age);
  }
  return expired;
}

/** The refusal: which records, how old their keys are, what could happen, what to do. */
export function keyWindowError(expired: Expired, window: KeyWindow): UsageError {
  const shown = expired.records.join(', ') + (expired.count > SHOWN ? ', …' : '');
  const oldest = expired.oldestMs;
  const age = Number.isFinite(oldest)
    ? `up to ${durationText(oldest)} ago`
    : 'at a time the journal does not give';
  const count = expired.count === 1 ? '1 record' : `${expired.count} records`;
  return new UsageError(
    `${count} of unknown outcome (record ${shown}) would be sent again with keys first sent ${age}, past the service's Idempotency-Key window (${durationText(window.windowMs)}, less ${durationText(window.marginMs)} of margin): the service may have forgotten them, and each may be created a second time; nothing was sent`,
    {
      hint: phrase`See whether they were created (${command('pets list')}); send them anyway with ${option('ignoreKeyWindow')}, or set the window the service keeps keys with ${option('keyWindow', 'DURATION')} (PETSTORE_KEY_WINDOW).`,
    },
  );
}
