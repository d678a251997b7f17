import type { Int64 } from '../core/int64.js';
import type { Pet } from '../core/interface.js';
import { sanitizeLine, sanitizeText, withoutEscapes } from '../core/sanitize.js';

/**
 * What the service said, made fit for an agent: data, never instructions. Text is sanitised as
 * for a terminal (no control or invisible characters, so nothing can hide in it), and every
 * int64 travels as a string of digits, exact in any JSON parser (an agent's parser rounds
 * numbers past 2^53; the command line prints them as bare numbers instead).
 */
export type AgentValue = string | number | boolean | null | AgentValue[] | AgentRecord;
export interface AgentRecord {
  [field: string]: AgentValue;
}

/** The int64 fields of the interface's bodies: always strings of digits for an agent. */
const INT64_FIELDS = new Set(['id', 'categoryId']);

export function int64Text(value: Int64): string {
  return typeof value === 'bigint' ? value.toString() : String(value);
}

/** Any value from the service, sanitised; `line`: one-line text (names), else text of lines. */
export function agentValue(value: unknown, field = ''): AgentValue {
  if (typeof value === 'string') {
    const text = withoutEscapes(value);
    return field === 'message' ? sanitizeText(text) : sanitizeLine(text);
  }
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') {
    return INT64_FIELDS.has(field) ? String(value) : Number.isFinite(value) ? value : null;
  }
  if (typeof value === 'boolean' || value === null || value === undefined) return value ?? null;
  if (Array.isArray(value)) return value.map((item) => agentValue(item));
  if (typeof value === 'object') {
    const record: AgentRecord = {};
    for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
      if (item === undefined) continue;
      // A field name is text from the service too.
      record[sanitizeLine(withoutEscapes(key))] = agentValue(item, key);
    }
    return record;
  }
  return null;
}

/** A pet for an agent: id and categoryId as strings of digits, its text sanitised. */
export function agentPet(pet: Pet): AgentRecord {
  return agentValue(pet) as AgentRecord;
}
