import { ageFlag } from '../../cmdutil/flags.js';
import { DRY_RUN, dryRunOption } from '../../cmdutil/options.js';
import { Option, type Command } from '@commander-js/extra-typings';
import { helpProse } from '../../cmdutil/help-text.js';
import type { FlagsOf, RunVerb } from '../../cmdutil/run-verb.js';
import { journalsDir } from '../../config/paths.js';
import type { RunOutput, RunServices } from '../../context/context.js';
import { durationText } from '../../core/duration.js';
import { formatSpec } from '../../output/formats.js';
import { batchStarts, journalColumns } from './columns.js';

function declareJournalPrune(journal: Command) {
  return journal
    .command('prune')
    .description('Remove finished journals (unfinished ones only with --force)')
    .option(
      '--older-than <duration>',
      'only journals last written longer ago than this (e.g. 7d, 2w, 1h30m)',
      ageFlag('--older-than', { zero: true }),
    )
    .addOption(
      new Option(
        '--force',
        'remove unfinished journals too: their unknown and unsent records can then never be completed exactly once',
      ),
    )
    .addOption(dryRunOption(DRY_RUN.prune))
    .addHelpText(
      'after',
      helpProse(`
The journals removed are printed (as journal list prints them); what is kept, and why, goes to
stderr. A journal a run is using is never removed. Drafts of journals left by runs ended while
they first read their input (killed, or a power cut: nothing was sent) go too, at any age,
and the copies of standard input killed runs left in the temporary folder.

Examples:
  $ petstore journal prune --older-than 7d
  $ petstore journal prune --dry-run`),
    );
}

export type JournalPruneOptions = FlagsOf<ReturnType<typeof declareJournalPrune>>;

export async function runJournalPrune(
  ctx: RunOutput & Pick<RunServices, 'env'>,
  options: JournalPruneOptions,
): Promise<void> {
  const now = Date.now();
  // Loaded when the command runs: building the program for another command loads no SQLite.
  const { pruneJournals } = await import('../../operations/journal/prune.js');
  const outcome = await pruneJournals(
    { folder: journalsDir(ctx.env), now },
    {
      olderThanMs: options.olderThan,
      force: options.force === true,
      dryRun: options.dryRun === true,
    },
  );
  for (const { journal, lost } of outcome.removed) {
    if (lost !== undefined) {
      ctx.warn(
        `${options.dryRun ? 'would remove' : 'removed'} the unfinished journal ${journal.path} (batch ${journal.batch ?? '-'}): ${lost}; what it held can no longer be completed exactly once`,
      );
    }
  }
  const unfinished = outcome.kept.filter(
    ({ why, foreign }) => why !== 'in use by a run' && foreign !== true,
  );
  for (const { journal, why } of outcome.kept) {
    ctx.notice(`kept ${journal.path}: ${why}`);
  }
  const removed = outcome.removed.map(({ journal }) => journal);
  // For a person: as journal list shows them (short batch ids, no path), and no table at all
  // when none was removed (the line below says so).
  if (!formatSpec(ctx.settings.output).forPeople) await ctx.render(removed, journalColumns(now));
  else if (removed.length > 0) {
    const batches = [...removed, ...outcome.kept.map(({ journal }) => journal)].flatMap(
      (journal) => journal.batch ?? [],
    );
    await ctx.render(removed, journalColumns(now, { batchShown: batchStarts(batches) }));
  }
  if (outcome.drafts > 0) {
    const drafts = outcome.drafts === 1 ? '1 draft' : `${outcome.drafts} drafts`;
    ctx.notice(
      `${options.dryRun ? 'Would remove' : 'Removed'} ${drafts} of journals left by runs ended while reading their input (nothing was sent by them).`,
    );
  }
  if (outcome.scratch > 0) {
    const copies = outcome.scratch === 1 ? '1 copy' : `${outcome.scratch} copies`;
    ctx.notice(
      `${options.dryRun ? 'Would remove' : 'Removed'} ${copies} of standard input left in the temporary folder by runs that were killed.`,
    );
  }
  const verb = options.dryRun ? 'Would remove' : 'Removed';
  const age =
    options.olderThan === undefined ? '' : ` older than ${durationText(options.olderThan)}`;
  const count = (n: number) => (n === 1 ? '1 journal' : `${n} journals`);
  ctx.notice(
    `${verb} ${count(outcome.removed.length)}${age}` +
      (unfinished.length > 0
        ? `; kept ${count(unfinished.length)} unfinished (--force removes them).`
        : '.'),
  );
}

export function registerJournalPrune(journal: Command, runVerb: RunVerb): void {
  const prune = declareJournalPrune(journal);
  prune.action((flags) => runVerb(prune, () => flags, runJournalPrune));
}
