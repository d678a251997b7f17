import { UsageError } from '../core/errors.js';

export const OUTPUT_FORMATS = ['table', 'json', 'ndjson', 'csv', 'tsv'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export interface FormatInputs {
  flag: string | undefined;
  json: boolean;
  env: string | undefined;
  stdoutIsTTY: boolean;
}

/** Errors go to stderr as JSON objects when the data is JSON; as text with tables, CSV, TSV. */
export function errorsAsJson(format: OutputFormat): boolean {
  return format === 'json' || format === 'ndjson';
}

/** Flag > PETSTORE_OUTPUT > table on a terminal, JSON otherwise. */
export function resolveOutputFormat({ flag, json, env, stdoutIsTTY }: FormatInputs): OutputFormat {
  if (json) {
    if (flag !== undefined && flag !== 'json') {
      throw new UsageError(`--json conflicts with --output ${flag}`, {
        hint: 'Give one of them.',
      });
    }
    return 'json';
  }
  const chosen = flag ?? (env === '' ? undefined : env);
  if (chosen === undefined) return stdoutIsTTY ? 'table' : 'json';
  if ((OUTPUT_FORMATS as readonly string[]).includes(chosen)) return chosen as OutputFormat;
  const source = flag !== undefined ? '--output' : 'PETSTORE_OUTPUT';
  throw new UsageError(`${source} must be one of ${OUTPUT_FORMATS.join(', ')}, got "${chosen}"`);
}
