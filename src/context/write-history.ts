import type { WriteRecord } from '../api/write-record.js';
import { historyFile } from '../config/paths.js';
import type { Env } from '../core/io.js';
import type { SecretRedactor } from '../core/redaction/index.js';
import { entryFromWrite, type HistorySource } from '../history/from-write.js';
import { HistoryRecorder } from '../history/recorder.js';
import { historyRetention } from '../history/settings.js';
import { HistoryStore } from '../history/store.js';
import type { RefusedWrite, WriteSource } from './parts.js';
import type { Target } from './target.js';

/**
 * A run's part of the history of writes: every client the run makes tells it of each write
 * (onWrite), and a front end of a write it refused; the store is opened by the first entry
 * (none at all when PETSTORE_HISTORY=off) and written at the latest when the run closes.
 */
export function runHistory(
  env: Env,
  redactor: Pick<SecretRedactor, 'redact'>,
  warn: (message: string) => void,
  cleanups: (() => Promise<void>)[],
) {
  let source: WriteSource = { via: 'cli' };
  let recorder: HistoryRecorder | null | undefined;
  const opened = (): HistoryRecorder | null => {
    if (recorder !== undefined) return recorder;
    const retention = historyRetention(env);
    if (retention === 'off') return (recorder = null);
    const made = new HistoryRecorder(() => HistoryStore.open(historyFile(env)), warn, retention);
    cleanups.push(() => {
      made.close();
      return Promise.resolve();
    });
    return (recorder = made);
  };
  const sourceOf = (target: Target): HistorySource => ({
    via: source.via,
    client: source.client?.(),
    profile: target.profile,
    service: target.baseUrl === undefined ? undefined : redactor.redact(target.baseUrl),
  });
  return {
    /** What a client for `target` tells of each write it sends. */
    onWriteTo: (target: Target) => (write: WriteRecord) => {
      opened()?.record(entryFromWrite(write, sourceOf(target)));
    },
    recordWritesAs(given: WriteSource): void {
      source = given;
    },
    recordRefusal(target: Target, refusal: RefusedWrite): void {
      opened()?.record({
        at: new Date().toISOString(),
        ...sourceOf(target),
        ...refusal,
        idempotencyKey: undefined,
        requestId: undefined,
        status: 0,
        resultId: undefined,
        batch: undefined,
        record: undefined,
        attempts: 0,
        durationMs: 0,
      });
    },
  };
}
