import type { Command } from '@commander-js/extra-typings';
import type { FlagsOf, RunVerb } from '../../cmdutil/run-verb.js';
import type { RunOutput, RunServices } from '../../context/context.js';
import { durationText, parseDuration } from '../../core/duration.js';
import { UsageError } from '../../core/errors.js';
import { readingHistory } from './open.js';

/** Ten years: past it, an age is a typo. */
const MAX_AGE_MS = 3650 * 86_400_000;

function parseAge(text: string): number {
  // 0s: every entry, however new (asked for on purpose).
  const ms = parseDuration(text, MAX_AGE_MS, { zero: true });
  if (ms === undefined) {
    throw new UsageError(
      `--older-than must be a duration such as 30d, 12w or 0s (got ${JSON.stringify(text)})`,
    );
  }
  return ms;
}

function declareHistoryPrune(history: Command) {
  return history
    .command('prune')
    .description('Remove recorded writes older than a duration (the history keeps 90 days)')
    .requiredOption(
      '--older-than <duration>',
      'remove writes older than this (e.g. 30d, 12w)',
      parseAge,
    )
    .addHelpText(
      'after',
      '\nEntries past the retention (PETSTORE_HISTORY_RETENTION, 90d by default) go on their own.\n\nExample:\n  $ petstore history prune --older-than 30d',
    );
}

export type HistoryPruneOptions = FlagsOf<ReturnType<typeof declareHistoryPrune>>;

export async function runHistoryPrune(
  ctx: RunOutput & Pick<RunServices, 'env'>,
  options: HistoryPruneOptions,
): Promise<void> {
  const { pruneHistory } = await import('../../operations/history/history.js');
  const removed = readingHistory(ctx.env, (deps) => pruneHistory(deps, options.olderThan));
  ctx.notice(
    `Removed ${removed} recorded write${removed === 1 ? '' : 's'} older than ${durationText(options.olderThan)}.`,
  );
}

export function registerHistoryPrune(history: Command, runVerb: RunVerb): void {
  const prune = declareHistoryPrune(history);
  prune.action((options) => runVerb(prune, () => options, runHistoryPrune));
}
