import type { HistoryEntry } from '../../src/history/entry.js';

/** A recorded write: a pet created through the command line, unless `fields` say otherwise. */
export function entry(fields: Partial<HistoryEntry> = {}): HistoryEntry {
  return {
    at: new Date().toISOString(),
    via: 'cli',
    client: undefined,
    profile: 'staging',
    service: 'https://staging.example/v1',
    operation: 'pets add',
    method: 'POST',
    path: '/v1/pets',
    idempotencyKey: 'k-1',
    requestId: undefined,
    outcome: 'created',
    status: 201,
    resultId: '7',
    batch: undefined,
    record: undefined,
    sent: '{"name":"Rex","categoryId":1}',
    error: undefined,
    attempts: 1,
    durationMs: 12,
    ...fields,
  };
}
