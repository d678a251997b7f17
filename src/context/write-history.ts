import { hostname, userInfo } from 'node:os';
import type { WriteRecord } from '../api/write-record.js';
import { historyFile } from '../config/paths.js';
import type { Env } from '../core/io.js';
import type { SecretRedactor } from '../core/redaction/index.js';
import { entryFromWrite, type HistorySource } from '../history/from-write.js';
import { HistoryRecorder } from '../history/recorder.js';
import { historySettings } from '../history/settings.js';
import type { HistoryEntry } from '../history/entry.js';
import { snippet } from '../core/sanitize.js';
import { HistoryStore } from '../history/store.js';
import type { RefusedWrite } from '../history/entry.js';
import type { WriteSource } from './parts.js';
import type { Target } from './target.js';

let sender: { user: string | undefined; host: string | undefined } | undefined;
/** The operating system's user and this machine's name, as each entry records them. */
function whoAndWhere(): { user: string | undefined; host: string | undefined } {
  if (sender !== undefined) return sender;
  let user: string | undefined;
  try {
    user = userInfo().username;
  } catch {
    // A user with no entry in the system's user database (a container's arbitrary uid).
    user = process.env.USER ?? process.env.LOGNAME ?? `uid ${process.getuid?.() ?? '?'}`;
  }
  return (sender = { user, host: hostname() });
}

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
    const { retention, problem } = historySettings(env);
    if (problem !== undefined) warn(problem);
    if (retention === 'off') return (recorder = null);
    const made = new HistoryRecorder(
      (waitMs) => HistoryStore.open(historyFile(env), waitMs),
      warn,
      retention,
    );
    // First, and at once (no await before it): a run stopped at once (a second Ctrl-C) exits
    // without waiting for the cleanups after this one.
    cleanups.unshift(() => {
      made.close();
      return Promise.resolve();
    });
    return (recorder = made);
  };
  /**
   * Every text an entry keeps is masked (secrets the run knows of, anywhere: a pet's name, the
   * agent's client name) and made one short line, whichever front end made it.
   */
  const record = (entry: HistoryEntry) => {
    const history = opened();
    if (history === null) return;
    const safe = { ...entry, ...whoAndWhere() } as Record<string, unknown>;
    for (const [field, value] of Object.entries(safe)) {
      if (typeof value !== 'string') continue;
      const masked = redactor.redact(value);
      safe[field] = field === 'sent' ? masked : snippet(masked, field === 'client' ? 100 : 2000);
    }
    history.record(safe as unknown as HistoryEntry);
  };
  const sourceOf = (target: Target, url?: string): HistorySource => ({
    via: source.via,
    client: source.client?.(),
    profile: target.profile,
    service: serviceOf(target, url),
  });
  return {
    /**
     * What a client for `target` tells of each write it sends; none when the history keeps
     * nothing (PETSTORE_HISTORY=off): the client then makes no record of its writes at all.
     */
    onWriteTo: (target: Target) =>
      historySettings(env).retention === 'off'
        ? undefined
        : (write: WriteRecord) => record(entryFromWrite(write, sourceOf(target, write.url))),
    recordWritesAs(given: WriteSource): void {
      source = given;
    },
    recordRefusal(target: Target, refusal: RefusedWrite): void {
      const quickstart = refusal.path.startsWith('quickstart:');
      const base = quickstart ? target.quickstartUrl : target.baseUrl;
      const relative = refusal.path.replace(/^quickstart:/, '');
      const url = base === undefined ? undefined : `${base.replace(/\/+$/, '')}/${relative}`;
      record({
        at: new Date().toISOString(),
        ...sourceOf(target, url),
        ...refusal,
        path: url === undefined ? relative : new URL(url).pathname,
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

/**
 * The service a write went to: the target's base URL, or, for a write elsewhere (a message to
 * the quickstart URL), that URL's origin and first path segment.
 */
function serviceOf(target: Target, url: string | undefined): string | undefined {
  const base = target.baseUrl;
  if (url === undefined || (base !== undefined && url.startsWith(base))) return base;
  try {
    const parsed = new URL(url);
    return `${parsed.origin}/${parsed.pathname.split('/')[1] ?? ''}`;
  } catch {
    return base;
  }
}
