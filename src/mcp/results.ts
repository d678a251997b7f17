import type { CallToolResult } from '@modelcontextprotocol/server';
import { escapeInvisibleInJson } from '../core/sanitize.js';
import { PetstoreError } from '../core/errors.js';
import { errorFields, exitCodeFor } from '../output/report-error.js';
import type { AgentRecord } from './agent-data.js';

/**
 * A tool's answer: the data as structuredContent, and the same JSON as text for clients that
 * show only text (as the protocol asks of a tool with an output schema).
 */
export function dataResult(data: AgentRecord, options: { isError?: boolean } = {}): CallToolResult {
  return {
    content: [{ type: 'text', text: escapeInvisibleInJson(JSON.stringify(data, null, 2)) }],
    structuredContent: data,
    ...(options.isError ? { isError: true } : {}),
  };
}

/**
 * What went wrong, as the command line's JSON error says it (code, message, hint, status,
 * request id) with its exit code and the error's class: sanitised, never a stack.
 */
export function errorRecord(error: unknown): AgentRecord {
  const fields = errorFields(error);
  return {
    ...fields,
    exitCode: exitCodeFor(error),
    class: error instanceof PetstoreError ? error.name : 'Error',
  };
}

/** A failed call: isError, with the error in text and as data. */
export function errorResult(error: unknown): CallToolResult {
  const record = errorRecord(error);
  const lines = [`petstore: ${typeof record.message === 'string' ? record.message : ''}`];
  if (typeof record.hint === 'string') lines.push(`hint: ${record.hint}`);
  return {
    content: [{ type: 'text', text: lines.join('\n') }],
    structuredContent: { error: record },
    isError: true,
  };
}
