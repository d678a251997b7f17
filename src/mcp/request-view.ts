import type { RequestPreview } from '../api/request.js';
import { stringifyJson } from '../core/json.js';
import { agentValue, type AgentRecord } from './agent-data.js';

/** Headers that carry the key: shown as present, never with any part of the key. */
const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization', 'x-api-key']);
const KEY_NOT_SHOWN = "Bearer (the profile's API key, not shown)";

/**
 * A request as --dry-run prints it, for an agent: the key header says only that it is there.
 */
export function agentRequest(preview: RequestPreview): AgentRecord {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(preview.headers)) {
    headers[name] = CREDENTIAL_HEADERS.has(name.toLowerCase()) ? KEY_NOT_SHOWN : value;
  }
  const view = agentValue({ ...preview, headers }) as AgentRecord;
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
    lines.push(`${name}: ${CREDENTIAL_HEADERS.has(name.toLowerCase()) ? KEY_NOT_SHOWN : value}`);
  }
  if (preview.body !== undefined) lines.push('', stringifyJson(preview.body, true));
  return lines.join('\n');
}
