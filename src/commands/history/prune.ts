import { ageFlag } from '../../cmdutil/flags.js';
import { helpProse } from '../../cmdutil/help-text.js';
import { DRY_RUN, dryRunOption } from '../../cmdutil/options.js';
import type { Command } from '@commander-js/extra-typings';
import type { FlagsOf, RunVerb } from '../../cmdutil/run-verb.js';
import type { RunOutput, RunServices } from '../../context/context.js';
import { durationText } from '../../core/duration.js';
import { readingHistory } from './open.js';

function declareHistoryPrune(history: Command) {
  return history
    .command('prune')
    .description('Remove recorded writes older than a duration (the history keeps 90 days)')
    .requiredOption(
      '--older-than <duration>',
      'remove writes older than this (e.g. 30d, 12w)',
      ageFlag('--older-than', { zero: true }),
    )
    .addOption(dryRunOption(DRY_RUN.historyPrune))
    .addHelpText(
      'after',
      helpProse(`
Entries past the retention (PETSTORE_HISTORY_RETENTION, 90d by default) go on their own. The
file is then made as small as what it still holds, unless another petstore is writing to it.

Examples:
  $ petstore history prune --older-than 30d
  $ petstore history prune --older-than 7d --dry-run`),
    );
}

export type HistoryPruneOptions = FlagsOf<ReturnType<typeof declareHistoryPrune>>;

export async function runHistoryPrune(
  ctx: RunOutput & Pick<RunServices, 'env'>,
  options: HistoryPruneOptions,
): Promise<void> {
  const { pruneHistory } = await import('../../operations/history/history.js');
  const dryRun = options.dryRun === true;
  const removed = readingHistory(ctx.env, (deps) => pruneHistory(deps, options.olderThan, dryRun));
  ctx.notice(
    `${dryRun ? 'Would remove' : 'Removed'} ${removed} recorded write${removed === 1 ? '' : 's'} older than ${durationText(options.olderThan)}.`,
  );
}

export function registerHistoryPrune(history: Command, runVerb: RunVerb): void {
  const prune = declareHistoryPrune(history);
  prune.action((options) => runVerb(prune, () => options, runHistoryPrune));
}
