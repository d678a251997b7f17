import { UsageError } from '../core/errors.js';
import { defaultFormat, formatSpec, OUTPUT_FORMATS, type OutputFormat } from './formats.js';

export { OUTPUT_FORMATS, type OutputFormat } from './formats.js';

export interface FormatInputs {
  flag: string | undefined;
  json: boolean;
  env: string | undefined;
  stdoutIsTTY: boolean;
}

export const ERROR_FORMATS = ['text', 'json'] as const;
export type ErrorFormat = (typeof ERROR_FORMATS)[number];

/**
 * The one rule for the form of what stderr says (errors, a bulk run's summary): stderr speaks
 * to whoever reads it. Text to a person at a terminal, whatever stdout is; JSON objects to a
 * program reading stderr while the data is JSON (CI piping both); `--error-format` (env
 * PETSTORE_ERROR_FORMAT) forces either.
 */
export function errorsAsJson(choice: {
  forced: ErrorFormat | undefined;
  output: OutputFormat;
  stderrIsTTY: boolean;
}): boolean {
  if (choice.forced !== undefined) return choice.forced === 'json';
  return !choice.stderrIsTTY && formatSpec(choice.output).json;
}

/** --error-format or PETSTORE_ERROR_FORMAT, checked; undefined when neither is given. */
export function parseErrorFormat(
  flag: string | undefined,
  env: string | undefined,
): ErrorFormat | undefined {
  const chosen = flag ?? (env === '' ? undefined : env);
  if (chosen === undefined) return undefined;
  if ((ERROR_FORMATS as readonly string[]).includes(chosen)) return chosen as ErrorFormat;
  const source = flag !== undefined ? '--error-format' : 'PETSTORE_ERROR_FORMAT';
  throw new UsageError(`${source} must be text or json, got "${chosen}"`);
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
  if (chosen === undefined) return defaultFormat(stdoutIsTTY);
  if ((OUTPUT_FORMATS as readonly string[]).includes(chosen)) return chosen as OutputFormat;
  const source = flag !== undefined ? '--output' : 'PETSTORE_OUTPUT';
  throw new UsageError(`${source} must be one of ${OUTPUT_FORMATS.join(', ')}, got "${chosen}"`);
}
