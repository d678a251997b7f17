import { isInt64 } from '../../core/int64.js';
import { JsonTooDeepError, parseJson } from '../../core/json.js';
import { isPetStatus, PET_STATUSES, type NewPet } from '../../core/types.js';
import { UsageError } from '../../core/errors.js';

const FIELDS = new Set(['name', 'categoryId', 'status']);
const MAX_REPORTED_PROBLEMS = 20;

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

function parseProblem(error: unknown): string {
  return error instanceof JsonTooDeepError ? error.message : 'not valid JSON';
}

/**
 * Reads NewPet records from a JSON array or from NDJSON (one object per line), and checks all
 * of them before anything is sent. Every bad record is reported (up to a cap), a line that is
 * not JSON among them. int64 values keep every digit.
 */
export function parsePetsFile(text: string, source: string): NewPet[] {
  const entries: { where: string; value: unknown }[] = [];
  const problems: string[] = [];
  if (text.trimStart().startsWith('[')) {
    let parsed: unknown;
    try {
      parsed = parseJson(text);
    } catch (error) {
      const reason = error instanceof JsonTooDeepError ? error.message : (error as Error).message;
      throw new UsageError(`${source} is not valid JSON: ${reason}; nothing was sent`);
    }
    if (!Array.isArray(parsed)) throw new UsageError(`${source} must hold a JSON array of pets`);
    parsed.forEach((value, index) => entries.push({ where: `item ${index + 1}`, value }));
  } else {
    for (const [index, line] of text.split('\n').entries()) {
      if (line.trim() === '') continue;
      const where = `line ${index + 1}`;
      try {
        entries.push({ where, value: parseJson(line) });
      } catch (error) {
        problems.push(`${where}: ${parseProblem(error)}`);
      }
    }
  }
  if (entries.length === 0 && problems.length === 0)
    throw new UsageError(`${source} holds no pets`);
  for (const { where, value } of entries) {
    const problem = recordProblem(value);
    if (problem) problems.push(`${where}: ${problem}`);
  }
  if (problems.length > 0) {
    // Lines that are not JSON were found first; report every problem in input order.
    problems.sort((a, b) => position(a) - position(b));
    const shown = problems.slice(0, MAX_REPORTED_PROBLEMS).join('; ');
    const more =
      problems.length > MAX_REPORTED_PROBLEMS
        ? ` (and ${problems.length - MAX_REPORTED_PROBLEMS} more)`
        : '';
    const count = problems.length === 1 ? '1 bad record' : `${problems.length} bad records`;
    throw new UsageError(`${source}: ${count}: ${shown}${more}; nothing was sent`, {
      hint: 'Give a JSON array of pets, or one JSON object per line (NDJSON), each with name and categoryId.',
    });
  }
  return entries.map(({ value }) => value as NewPet);
}

function position(problem: string): number {
  return Number(/^\w+ (\d+):/.exec(problem)?.[1] ?? 0);
}
