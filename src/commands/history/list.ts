import { Option, type Command } from '@commander-js/extra-typings';
import { ageFlag, wholeNumberFlag } from '../../cmdutil/flags.js';
import { helpProse } from '../../cmdutil/help-text.js';
import { fieldsOption } from '../../cmdutil/options.js';
import type { FlagsOf, RunVerb } from '../../cmdutil/run-verb.js';
import type { RunOutput, RunServices } from '../../context/context.js';
import { UsageError } from '../../core/errors.js';
import { HISTORY_OUTCOMES, HISTORY_VIAS, type HistoryOutcome } from '../../history/entry.js';
import { formatSpec } from '../../output/formats.js';
import { HISTORY_COLUMNS, historyRow, historyTableFields, type HistoryRow } from './columns.js';
import { readingEntries } from './open.js';

const LIMIT = { min: 1, max: 100_000 };
const DEFAULT_LIMIT = 50;

function parseOutcomes(text: string): HistoryOutcome[] {
  const names = text.split(',').map((name) => name.trim().toLowerCase());
  const unknown = names.filter((name) => !(HISTORY_OUTCOMES as readonly string[]).includes(name));
  if (unknown.length > 0 || names.length === 0) {
    throw new UsageError(
      `--outcome takes ${HISTORY_OUTCOMES.join(', ')} (comma-separated), got ${JSON.stringify(text)}`,
    );
  }
  return names as HistoryOutcome[];
}

/** `petstore history` itself lists: its flags are the group's own. */
export function declareHistoryList(history: Command) {
  return history
    .option(
      '--since <duration>',
      'only writes in this time back (e.g. 1h, 7d, 30m)',
      ageFlag('--since'),
    )
    .addOption(new Option('--via <front-end>', 'only writes through this').choices(HISTORY_VIAS))
    .option('--batch <id>', 'only the records of this bulk run (pets import)')
    .option('--pet <id>', 'only the writes about this pet: the one that created it, and any to it')
    .option('--name <name>', 'only the writes that sent a pet of this name (exactly)')
    .option('--trace <id>', 'only the writes of this W3C trace (a CI run, an agent call)')
    .option(
      '--outcome <list>',
      `only these outcomes, comma-separated: ${HISTORY_OUTCOMES.join(', ')}`,
      parseOutcomes,
    )
    .option(
      '--limit <n>',
      `at most this many, newest first (default ${DEFAULT_LIMIT})`,
      wholeNumberFlag('--limit', LIMIT),
    )
    .addOption(fieldsOption(HISTORY_COLUMNS.map((column) => column.header)))
    .addHelpText(
      'after',
      helpProse(`
Every write petstore sends, or refuses to send for an agent, is recorded on this machine:
through the command line or petstore mcp (naming the agent's client), the profile and service,
the operation, its Idempotency-Key and request id, and what became of it. --profile (a global
option) lists only that profile's writes. The history: docs/history.md.

Examples:
  $ petstore history --since 1h
  $ petstore history --via mcp --outcome refused,declined
  $ petstore history --pet 153
  $ petstore --profile production history --json --limit 500
  $ petstore history show 42`),
    );
}

export type HistoryListOptions = FlagsOf<ReturnType<typeof declareHistoryList>>;

export async function runHistoryList(
  ctx: RunOutput & Pick<RunServices, 'env'>,
  options: HistoryListOptions,
): Promise<void> {
  const { listHistory } = await import('../../operations/history/history.js');
  const forPeople = formatSpec(ctx.settings.output).forPeople;
  const limit = options.limit ?? DEFAULT_LIMIT;
  // One more than asked is read: whether there are more is said, not left to be guessed.
  const entries = readingEntries(ctx.env, (deps) =>
    listHistory(deps, {
      sinceMs: options.since,
      // --profile given (or PETSTORE_PROFILE): that profile's writes only.
      profile: ctx.settings.profile?.name,
      via: options.via,
      batch: options.batch,
      outcomes: options.outcome,
      pet: options.pet,
      name: options.name,
      trace: options.trace,
      limit: limit + 1,
    }),
  );
  let more = false;
  const first = entries.next();
  if (first.done === true && forPeople) {
    ctx.notice('No writes recorded that match.');
    return;
  }
  const fields =
    options.fields ?? (forPeople ? historyTableFields(ctx.io.stdoutColumns) : undefined);
  // Written as they are read, a window at a time: any --limit is held in bounded memory.
  const rows = await ctx.openRows(HISTORY_COLUMNS, { fields });
  let window: HistoryRow[] = first.done === true ? [] : [historyRow(first.value)];
  let shown = window.length;
  for (const entry of entries) {
    if (shown === limit) {
      more = true;
      break;
    }
    shown++;
    window.push(historyRow(entry));
    if (window.length < WINDOW) continue;
    rows.write(window);
    window = [];
    // Read no faster than the reader takes them (a pipe buffers what it was not yet given);
    // one that has what it wanted (| head) ends the reading.
    await ctx.io.stdoutFlushed();
    if (ctx.io.stdoutClosed()) break;
  }
  rows.write(window);
  rows.end();
  if (more) {
    ctx.notice(
      `Stopped at --limit ${limit}; more writes are recorded that match (a larger --limit, or --since, shows them).`,
    );
  }
}

/** Entries written to stdout at once. */
const WINDOW = 500;

export function registerHistoryList(history: Command, runVerb: RunVerb): void {
  const list = declareHistoryList(history);
  list.action((options) => runVerb(list, () => options, runHistoryList));
}
