import { createHash } from 'node:crypto';
import type { WriteRecord } from '../api/write-record.js';
import type { HistoryEntry, HistoryOutcome, HistoryVia } from './entry.js';

/** Who is writing, and where: what the run knows that a write's record does not. */
export interface HistorySource {
  via: HistoryVia;
  client: string | undefined;
  profile: string | undefined;
  service: string | undefined;
}

function outcomeOf(write: WriteRecord, operation: string): HistoryOutcome {
  if (write.outcome !== 'answered') return write.outcome;
  const status = write.status ?? 0;
  // A write answered 5xx may have been carried out: its outcome is unknown.
  if (status >= 500) return 'unknown';
  if (status < 200 || status > 299)
    return write.label?.expected === 'refused' ? 'expected' : 'failed';
  if (write.replayed) return 'replayed';
  if (operation === 'message send') return 'queued';
  if (operation === 'pets add' || operation === 'pets import') return 'created';
  if (write.label?.expected === 'created' || write.label?.expected === 'queued') {
    return write.label.expected;
  }
  return 'answered';
}

/**
 * The most of a pet's fields the history keeps as sent. A larger body (a sheet of records
 * near the 1 MiB a record may be) is kept as its size and SHA-256 only: the history would
 * otherwise grow by each such record's size, every try, refused ones too.
 */
export const SENT_KEPT_MOST = 16 * 1024;

/**
 * Of a pet, its fields as sent (up to SENT_KEPT_MOST); of a message, only its length in
 * characters; of any other body, only its size in bytes.
 */
function sentOf(write: WriteRecord, operation: string): string | undefined {
  if (write.label?.length !== undefined) return JSON.stringify({ length: write.label.length });
  if (write.body === undefined) return undefined;
  const bytes = Buffer.byteLength(write.body);
  if (
    operation === 'pets add' ||
    operation === 'pets import' ||
    write.label?.expected !== undefined
  ) {
    if (bytes <= SENT_KEPT_MOST) return write.body;
    return JSON.stringify({
      bytes,
      sha256: createHash('sha256').update(write.body).digest('hex'),
    });
  }
  return JSON.stringify({ bytes });
}

export function entryFromWrite(write: WriteRecord, source: HistorySource): HistoryEntry {
  const operation = write.label?.operation ?? 'api';
  let path = write.url;
  try {
    const url = new URL(write.url);
    path = `${url.pathname}${url.search}`;
  } catch {
    // Masking made it no URL: kept whole, as masked.
  }
  return {
    at: write.startedAt,
    ...source,
    operation,
    method: write.method,
    path,
    idempotencyKey: write.idempotencyKey,
    requestId: write.requestId,
    outcome: outcomeOf(write, operation),
    status: write.status ?? 0,
    resultId: write.resultId,
    batch: write.label?.batch,
    record: write.label?.record,
    sent: sentOf(write, operation),
    error: write.error?.message,
    attempts: write.attempts,
    durationMs: write.durationMs,
    trace: write.traceId,
  };
}
