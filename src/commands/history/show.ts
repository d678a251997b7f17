import type { Command } from '@commander-js/extra-typings';
import { wholeNumberFlag } from '../../cmdutil/flags.js';
import type { RunVerb } from '../../cmdutil/run-verb.js';
import type { RunOutput, RunServices } from '../../context/context.js';
import { UsageError } from '../../core/errors.js';
import { HISTORY_COLUMNS } from './columns.js';
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
  // One entry: every field of it, in any format.
  await ctx.render(entry, HISTORY_COLUMNS);
}

export function registerHistoryShow(history: Command, runVerb: RunVerb): void {
  history
    .command('show')
    .description('Show one recorded write, every field of it')
    .argument(
      '<ID>',
      'its id, as petstore history lists it',
      wholeNumberFlag('ID', { min: 1, max: Number.MAX_SAFE_INTEGER }),
    )
    .addHelpText('after', '\nExample:\n  $ petstore history show 42 --json')
    .action((id, _flags, command) => runVerb(command, () => ({ id }), runHistoryShow));
}
