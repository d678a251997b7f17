import { command, option, phrase } from '../core/phrase.js';
import { UsageError } from '../core/errors.js';

/** What is wrong with an input as a whole: no records, or bad ones. */

const MAX_REPORTED_PROBLEMS = 20;

/** An input with no record in it: nothing to send, and how to start one. */
export function noPets(source: string): UsageError {
  return new UsageError(`${source} holds no pets; nothing was sent`, {
    hint: phrase`Give one record a line (or a JSON array, or CSV/TSV rows under a header); ${command('pets import', { template: 'csv' })} prints the start of one.`,
  });
}

/**
 * The problems found in an input: the first few kept, to be said; all counted. Tens of
 * thousands of bad rows would otherwise each keep a message no one reads.
 */
export class Problems {
  readonly shown: string[] = [];
  count = 0;

  add(text: string): void {
    if (this.shown.length < MAX_REPORTED_PROBLEMS) this.shown.push(text);
    this.count++;
  }
}

/** The error for an input with bad records: each named (up to a cap), nothing sent. */
export function badRecords(source: string, problems: Problems, records: number): UsageError {
  const shown = problems.shown.join('; ');
  const more =
    problems.count > MAX_REPORTED_PROBLEMS
      ? ` (and ${problems.count - MAX_REPORTED_PROBLEMS} more)`
      : '';
  // Records, not problems: one row may have several.
  const count = records === 1 ? '1 bad record' : `${records} bad records`;
  return new UsageError(`${source}: ${count}: ${shown}${more}; nothing was sent`, {
    hint: phrase`Fix the records named and run again, or send the valid ones with ${option('skipInvalid')} (${option('rejects', 'FILE')} writes the others, with why, to fix and import again).`,
  });
}

/**
 * An input whose every record is invalid, set aside (--skip-invalid): nothing to send. Said
 * with what became of them: written with why to the rejects file, or only counted.
 */
export function noValidRecords(
  source: string,
  problems: Problems,
  records: number,
  written: boolean,
): UsageError {
  const all = records === 1 ? 'its one record is invalid' : `all ${records} records are invalid`;
  const shown = problems.shown.join('; ');
  return new UsageError(`${source}: ${all}: ${shown}; nothing was sent`, {
    hint: written
      ? 'Fix them in the rejects file (its reason column says what is wrong) and import that file.'
      : phrase`Fix the records named and run again (${option('rejects', 'FILE')} writes them, with why, to fix and import).`,
  });
}
