import { isInt64 } from '../../core/int64.js';
import { parseJson } from '../../core/json.js';
import { isPetStatus, PET_STATUSES, type NewPet } from '../../core/types.js';
import { UsageError } from '../../core/errors.js';

const FIELDS = new Set(['name', 'categoryId', 'status']);
const MAX_REPORTED_PROBLEMS = 5;

function recordProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not an object';
  const record = value as Record<string, unknown>;
  const unknown = Object.keys(record).filter((key) => !FIELDS.has(key));
  if (unknown.length > 0)
    return `unknown field(s) ${unknown.join(', ')} (NewPet has name, categoryId, status)`;
  if (typeof record.name !== 'string' || record.name.trim() === '')
    return '"name" must be a non-empty string';
  if (!isInt64(record.categoryId)) return '"categoryId" must be an int64 integer';
  if (
    record.status !== undefined &&
    (typeof record.status !== 'string' || !isPetStatus(record.status))
  ) {
    return `"status" must be one of ${PET_STATUSES.join(', ')}`;
  }
  return undefined;
}

/**
 * Reads NewPet records from a JSON array or from NDJSON (one object per line), and checks all
 * of them before anything is sent. int64 values keep every digit.
 */
export function parsePetsFile(text: string, source: string): NewPet[] {
  const entries: { where: string; value: unknown }[] = [];
  if (text.trimStart().startsWith('[')) {
    let parsed: unknown;
    try {
      parsed = parseJson(text);
    } catch (error) {
      throw new UsageError(`${source} is not valid JSON: ${(error as Error).message}`);
    }
    if (!Array.isArray(parsed)) throw new UsageError(`${source} must hold a JSON array of pets`);
    parsed.forEach((value, index) => entries.push({ where: `item ${index + 1}`, value }));
  } else {
    for (const [index, line] of text.split('\n').entries()) {
      if (line.trim() === '') continue;
      try {
        entries.push({ where: `line ${index + 1}`, value: parseJson(line) });
      } catch {
        throw new UsageError(`${source}, line ${index + 1}: not valid JSON`, {
          hint: 'Give a JSON array of pets, or one JSON object per line (NDJSON).',
        });
      }
    }
  }
  if (entries.length === 0) throw new UsageError(`${source} holds no pets`);
  const problems = entries.flatMap(({ where, value }) => {
    const problem = recordProblem(value);
    return problem ? [`${where}: ${problem}`] : [];
  });
  if (problems.length > 0) {
    const shown = problems.slice(0, MAX_REPORTED_PROBLEMS).join('; ');
    const more =
      problems.length > MAX_REPORTED_PROBLEMS
        ? ` (and ${problems.length - MAX_REPORTED_PROBLEMS} more)`
        : '';
    throw new UsageError(`${source}: ${shown}${more}; nothing was sent`);
  }
  return entries.map(({ value }) => value as NewPet);
}
