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
  if (status < 200 || status > 299) return 'failed';
  if (write.replayed) return 'replayed';
  if (operation === 'message send') return 'queued';
  if (operation === 'pets add' || operation === 'pets import') return 'created';
  return 'answered';
}

/**
 * Of a pet, its fields as sent; of a message, only its length in characters; of any other body,
 * only its size in bytes.
 */
function sentOf(write: WriteRecord, operation: string): string | undefined {
  if (write.label?.length !== undefined) return JSON.stringify({ length: write.label.length });
  if (write.body === undefined) return undefined;
  if (operation === 'pets add' || operation === 'pets import') return write.body;
  return JSON.stringify({ bytes: Buffer.byteLength(write.body) });
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
  };
}
