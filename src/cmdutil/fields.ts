import { UsageError } from '../core/errors.js';

/**
 * --fields id,name,...: the fields to output, in that order, for every format. Unknown or
 * repeated names are refused (exit 2) before anything is sent, listing the known ones.
 */
export function parseFields(
  text: string | undefined,
  known: readonly string[],
): string[] | undefined {
  if (text === undefined) return undefined;
  const fields = text.split(',').map((field) => field.trim());
  const unknown = fields.filter((field) => !known.includes(field));
  if (fields.some((field) => field === '') || unknown.length > 0) {
    const named = unknown.filter((field) => field !== '');
    throw new UsageError(
      named.length > 0
        ? `--fields: unknown field${named.length > 1 ? 's' : ''} ${named.map((f) => `"${f}"`).join(', ')}`
        : '--fields: an empty field name',
      {
        hint: `Known fields: ${known.join(', ')} (comma-separated, e.g. --fields ${known.slice(0, 2).join(',')}).`,
      },
    );
  }
  const repeated = fields.find((field, index) => fields.indexOf(field) !== index);
  if (repeated !== undefined) {
    throw new UsageError(`--fields: "${repeated}" is named twice`, {
      hint: `Known fields: ${known.join(', ')}.`,
    });
  }
  return fields;
}
