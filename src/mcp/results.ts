import type { CallToolResult } from '@modelcontextprotocol/server';
import { escapeInvisibleInJson, sanitizeLine } from '../core/sanitize.js';
import { PetstoreError } from '../core/errors.js';
import { errorFields, exitCodeFor } from '../output/report-error.js';
import type { AgentRecord } from './agent-data.js';
import { hintForAgent } from './wording.js';

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
export function errorRecord(
  error: unknown,
  options: { hint?: string; fields?: AgentRecord } = {},
): AgentRecord {
  const fields = errorFields(error, hintForAgent);
  if (options.hint !== undefined) fields.hint = sanitizeLine(options.hint);
  return {
    ...fields,
    ...options.fields,
    exitCode: exitCodeFor(error),
    class: error instanceof PetstoreError ? error.name : 'Error',
  };
}

/**
 * A failed call: `isError`, and the reason in the text content only: a line for a person, then
 * the error as JSON (`{"error": {code, message, hint, status, ...}}`) for the agent. No
 * structuredContent: the protocol asks it to match the tool's output schema, and the 1.x
 * client SDK refuses a result whose structuredContent does not (the reason never arrived).
 */
export function errorResult(
  error: unknown,
  options: { hint?: string; fields?: AgentRecord } = {},
): CallToolResult {
  const record = errorRecord(error, options);
  const lines = [`petstore: ${typeof record.message === 'string' ? record.message : ''}`];
  if (typeof record.hint === 'string') lines.push(`hint: ${record.hint}`);
  const json = escapeInvisibleInJson(JSON.stringify({ error: record }, null, 2));
  return { content: [{ type: 'text', text: `${lines.join('\n')}\n\n${json}` }], isError: true };
}
