import type { Command } from '@commander-js/extra-typings';
import { helpProse } from '../../cmdutil/help-text.js';
import type { RunVerb } from '../../cmdutil/run-verb.js';
import { journalsDir } from '../../config/paths.js';
import type { RunOutput, RunServices } from '../../context/context.js';
import { formatSpec } from '../../output/formats.js';
import { batchStarts, journalColumns } from './columns.js';

/** `journal list`: the journals bulk runs left in the state folder, oldest first. */
export async function runJournalList(ctx: RunOutput & Pick<RunServices, 'env'>): Promise<void> {
  const folder = journalsDir(ctx.env);
  // Loaded when the command runs: building the program for another command reads no journal code.
  const { listJournals } = await import('../../bulk/journal-list.js');
  const journals = await listJournals(folder);
  if (journals.length === 0 && formatSpec(ctx.settings.output).forPeople) {
    ctx.notice(`No journals in ${folder}.`);
    return;
  }
  const forPeople = formatSpec(ctx.settings.output).forPeople
    ? { batchShown: batchStarts(journals.flatMap((journal) => journal.batch ?? [])) }
    : undefined;
  await ctx.render(journals, journalColumns(Date.now(), forPeople));
}

export function registerJournalList(journal: Command, runVerb: RunVerb): void {
  const list = journal
    .command('list')
    .alias('ls')
    .description('List the journals of bulk runs: batch, input, outcomes, age, finished or not')
    .addHelpText(
      'after',
      helpProse(`
A journal is finished when every record has a known outcome (created, or refused by the
service); an unfinished one holds records of unknown outcome or never sent, which only it can
complete exactly once (pets import --resume BATCH_OR_PATH). Journals given --journal elsewhere
are not listed.

Examples:
  $ petstore journal list
  $ petstore journal list --json | jq '.[] | select(.finished | not) | .batch'`),
    );
  list.action(() => runVerb(list, () => ({}), runJournalList));
}
