import type { Command } from '@commander-js/extra-typings';
import { wholeNumberFlag } from '../../cmdutil/flags.js';
import type { RunVerb } from '../../cmdutil/run-verb.js';
import type { RunOutput, RunServices } from '../../context/context.js';
import { UsageError } from '../../core/errors.js';
import { formatSpec } from '../../output/formats.js';
import { HISTORY_COLUMNS, historyRow } from './columns.js';
import { readingHistory } from './open.js';

export interface HistoryShowOptions {
  id: number;
}

export async function runHistoryShow(
  ctx: RunOutput & Pick<RunServices, 'env'>,
  options: HistoryShowOptions,
): Promise<void> {
  const { historyEntry } = await import('../../operations/history/history.js');
  const entry = readingHistory(ctx.env, (deps) => historyEntry(deps, options.id));
  if (entry === undefined) {
    throw new UsageError(`no write ${options.id} in the history`, {
      hint: 'See the ids with: petstore history',
    });
  }
  const row = historyRow(entry);
  // One entry: every field of it, in any format; for a person, one field a line.
  if (formatSpec(ctx.settings.output).forPeople && ctx.settings.query === undefined) {
    const { renderRecord } = await import('../../output/table.js');
    const { color } = ctx.settings;
    ctx.io.stdout.write(renderRecord(row, HISTORY_COLUMNS, { color, width: ctx.io.stdoutColumns }));
    return;
  }
  await ctx.render(row, HISTORY_COLUMNS);
}

export function registerHistoryShow(history: Command, runVerb: RunVerb): void {
  history
    .command('show')
    .description('Show one recorded write, every field of it (one a line at a terminal)')
    .argument(
      '<ID>',
      'its id, as petstore history lists it',
      wholeNumberFlag('ID', { min: 1, max: Number.MAX_SAFE_INTEGER }),
    )
    .addHelpText('after', '\nExample:\n  $ petstore history show 42 --json')
    .action((id, _flags, command) => runVerb(command, () => ({ id }), runHistoryShow));
}
