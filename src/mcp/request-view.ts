import type { RequestPreview } from '../api/request.js';
import { stringifyJson } from '../core/json.js';
import { agentValue, type AgentRecord } from './agent-data.js';

/**
 * A request as --dry-run prints it, for an agent: its credential headers are masked already
 * (a preview is made through redactHeader, the one header list), showing the scheme alone.
 */
export function agentRequest(preview: RequestPreview): AgentRecord {
  const view = agentValue(preview) as AgentRecord;
  // `body` gives int64 values as strings, as every result does; `bodyJson` is the exact text sent.
  if (preview.body !== undefined) view.bodyJson = stringifyJson(preview.body);
  return view;
}

/**
 * The request as a person reads it before saying yes: the line, the headers, the body as JSON
 * (its text escaped, so nothing in a name can pose as part of this message).
 */
export function requestText(preview: RequestPreview): string {
  const lines = [`${preview.method} ${preview.url}`];
  for (const [name, value] of Object.entries(preview.headers)) {
    lines.push(`${name}: ${value}`);
  }
  if (preview.body !== undefined) lines.push('', stringifyJson(preview.body, true));
  return lines.join('\n');
}
