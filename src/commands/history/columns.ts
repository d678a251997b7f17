import type { HistoryEntry } from '../../history/entry.js';
import type { Column } from '../../output/columns.js';

const GOOD = new Set(['created', 'queued', 'replayed', 'answered']);

/** The columns of `history` and `history show`: one row an entry. */
export const HISTORY_COLUMNS: Column<HistoryEntry>[] = [
  { header: 'id', value: (entry) => entry.id },
  { header: 'at', value: (entry) => entry.at },
  { header: 'via', value: (entry) => entry.via },
  { header: 'client', value: (entry) => entry.client ?? null, placeholder: '-' },
  { header: 'profile', value: (entry) => entry.profile ?? null, placeholder: '-' },
  { header: 'operation', value: (entry) => entry.operation },
  {
    header: 'outcome',
    value: (entry) => entry.outcome,
    tone: (entry) => (GOOD.has(entry.outcome) ? 'good' : 'warn'),
  },
  { header: 'status', value: (entry) => entry.status },
  { header: 'resultId', value: (entry) => entry.resultId ?? null, placeholder: '-' },
  { header: 'batch', value: (entry) => entry.batch ?? null, placeholder: '-', shrinkable: true },
  { header: 'record', value: (entry) => entry.record ?? null, placeholder: '-' },
  { header: 'method', value: (entry) => entry.method },
  { header: 'path', value: (entry) => entry.path, shrinkable: true },
  { header: 'service', value: (entry) => entry.service ?? null, shrinkable: true },
  { header: 'idempotencyKey', value: (entry) => entry.idempotencyKey ?? null },
  { header: 'requestId', value: (entry) => entry.requestId ?? null },
  { header: 'sent', value: (entry) => entry.sent ?? null, shrinkable: true },
  { header: 'error', value: (entry) => entry.error ?? null, wrap: true },
  { header: 'attempts', value: (entry) => entry.attempts },
  { header: 'durationMs', value: (entry) => entry.durationMs },
];

/**
 * What a table at a terminal shows of each entry, within 80 columns (--fields batch,record for
 * an import's); the other formats carry every field.
 */
export const HISTORY_TABLE_FIELDS = [
  'id',
  'at',
  'via',
  'profile',
  'operation',
  'outcome',
  'resultId',
];
