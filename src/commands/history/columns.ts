import { parseJson } from '../../core/json.js';
import type { HistoryEntry } from '../../history/entry.js';
import type { Column } from '../../output/columns.js';

const GOOD = new Set(['created', 'queued', 'replayed', 'answered', 'expected']);

/**
 * An entry as the history commands print it: what was sent as the JSON it is (an object in
 * JSON output, compact JSON in a table), not a string of JSON inside the JSON.
 */
export type HistoryRow = Omit<HistoryEntry, 'sent'> & { sent: unknown };

export function historyRow(entry: HistoryEntry): HistoryRow {
  if (entry.sent === undefined) return entry;
  try {
    // int64 digit for digit: a categoryId past 2^53 is kept as sent.
    return { ...entry, sent: parseJson(entry.sent) };
  } catch {
    // Kept as text by an earlier petstore, or cut: shown as it is.
    return entry;
  }
}

/** The columns of `history` and `history show`: one row an entry. */
export const HISTORY_COLUMNS: Column<HistoryRow>[] = [
  { header: 'id', value: (entry) => entry.id },
  { header: 'at', value: (entry) => entry.at },
  { header: 'via', value: (entry) => entry.via },
  { header: 'client', value: (entry) => entry.client ?? null, placeholder: '-', shrinkable: true },
  {
    header: 'profile',
    value: (entry) => entry.profile ?? null,
    placeholder: '-',
    shrinkable: true,
  },
  { header: 'user', value: (entry) => entry.user ?? null, placeholder: '-' },
  { header: 'host', value: (entry) => entry.host ?? null, placeholder: '-', shrinkable: true },
  { header: 'operation', value: (entry) => entry.operation },
  {
    header: 'outcome',
    value: (entry) => entry.outcome,
    tone: (entry) => (GOOD.has(entry.outcome) ? 'good' : 'warn'),
  },
  { header: 'status', value: (entry) => entry.status },
  // A message's id is long: cut at a narrow terminal (history show ID, and JSON, have it whole).
  {
    header: 'resultId',
    value: (entry) => entry.resultId ?? null,
    placeholder: '-',
    shrinkable: true,
  },
  { header: 'batch', value: (entry) => entry.batch ?? null, placeholder: '-', shrinkable: true },
  { header: 'record', value: (entry) => entry.record ?? null, placeholder: '-' },
  { header: 'method', value: (entry) => entry.method },
  {
    header: 'path',
    value: (entry) => entry.path,
    shrinkable: true,
    keepEnd: true,
    yieldsFirst: true,
  },
  { header: 'service', value: (entry) => entry.service ?? null, shrinkable: true },
  { header: 'idempotencyKey', value: (entry) => entry.idempotencyKey ?? null },
  { header: 'requestId', value: (entry) => entry.requestId ?? null },
  { header: 'sent', value: (entry) => entry.sent ?? null, shrinkable: true },
  { header: 'error', value: (entry) => entry.error ?? null, wrap: true },
  { header: 'trace', value: (entry) => entry.trace ?? null, placeholder: '-' },
  { header: 'attempts', value: (entry) => entry.attempts },
  { header: 'durationMs', value: (entry) => entry.durationMs },
];

/**
 * What a table at a terminal shows of each entry: within 80 columns, and the agent's client
 * too where the terminal is wide enough for it (--fields for others; other formats carry every
 * field).
 */
export function historyTableFields(width: number | undefined): string[] {
  const fields = ['id', 'at', 'via', 'profile', 'operation', 'outcome', 'resultId'];
  if (width !== undefined && width >= WIDE_ENOUGH_FOR_CLIENT) fields.splice(3, 0, 'client');
  return fields;
}

/** The width past which the client column fits beside the others (a client's name ~20). */
const WIDE_ENOUGH_FOR_CLIENT = 110;
