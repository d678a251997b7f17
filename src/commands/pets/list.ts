import { fieldsOption } from '../../cmdutil/options.js';
import { Option, type Command } from '@commander-js/extra-typings';
import { helpProse } from '../../cmdutil/help-text.js';
import { limitFlag, statusFlag, wholeNumberFlag } from '../../cmdutil/flags.js';
import type { FlagsOf, RunVerb } from '../../cmdutil/run-verb.js';
import type { RunOutput, RunServices } from '../../context/context.js';
import { formatSpec } from '../../output/formats.js';
import { count } from '../../output/progress.js';
import { LIST_LIMIT, PET_STATUSES } from '../../core/interface.js';
import { MAX_ITEMS } from '../../core/contract.js';
import { PET_COLUMNS, PET_FIELDS } from './columns.js';
import { listPets, type ListEnd } from '../../operations/pets/list.js';

/** `pets list`'s flags, declared once: their types are the options of its run function. */
function declarePetsList(pets: Command) {
  return pets
    .command('list')
    .alias('ls')
    .description('List animals (GET /pets), one page or every page')
    .option(
      '--status <status>',
      `only animals with this status: ${PET_STATUSES.join(', ')}`,
      statusFlag,
    )
    .option(
      '--limit <n>',
      `page size, ${LIST_LIMIT.min} to ${LIST_LIMIT.max} (service default ${LIST_LIMIT.default}; ${LIST_LIMIT.max} with --all or --max-items)`,
      limitFlag,
    )
    .addOption(
      new Option('--all', 'follow the pages (Link rel="next") to the end of the list').conflicts(
        'maxItems',
      ),
    )
    .option(
      '--max-items <n>',
      'follow the pages until N animals (any N)',
      wholeNumberFlag('--max-items', MAX_ITEMS),
    )
    .addOption(fieldsOption(PET_FIELDS))
    .addHelpText(
      'after',
      helpProse(`
Examples:
  $ petstore pets list
  $ petstore pets list --status available --limit 50
  $ petstore pets list --all -o ndjson | wc -l
  $ petstore pets list --max-items 250 -o csv --fields id,name > pets.csv
  $ petstore pets list --json | jq '.[].name'`),
    );
}

export type PetsListOptions = FlagsOf<ReturnType<typeof declarePetsList>>;

/** `pets list`: the pets as they arrive, in the chosen format; where the list ended, said. */
export async function runPetsList(
  ctx: RunOutput & RunServices,
  options: PetsListOptions,
): Promise<void> {
  const client = await ctx.client();
  const follow = options.all === true || options.maxItems !== undefined;
  const rows = await ctx.openRows(PET_COLUMNS, { fields: options.fields });
  const progress = follow ? ctx.progressLine({ interruptible: true }) : undefined;
  const outcome = await listPets({ client, stopped: () => ctx.io.stdoutClosed() }, options, {
    onPets: (pets, pages) => {
      rows.write(pets);
      progress?.update(() => `pets ${count(rows.count)} · pages ${count(pages)}`);
    },
    printed: () => rows.printed,
  }).finally(() => progress?.done());
  if (
    rows.count === 0 &&
    formatSpec(ctx.settings.output).forPeople &&
    ctx.settings.query === undefined
  ) {
    ctx.notice(options.status === undefined ? 'No animals.' : `No ${options.status} animals.`);
    return;
  }
  rows.end();
  if (outcome.end !== undefined) ctx.notice(listEndNote(outcome.end));
}

const plural = (count: number) => `${count} pet${count === 1 ? '' : 's'}`;

/** Where the list ended, in the command line's words. */
export function listEndNote(end: ListEnd): string {
  switch (end.kind) {
    case 'more':
      return `Showing the first ${plural(end.shown)}; the service has more. Use --all for every page, or --max-items N.`;
    case 'stopped':
      return `Stopped at --max-items ${end.maxItems}; the service has more.`;
    case 'unlinked':
      return `The service sent no Link rel="next" after a full page of ${plural(end.shown)}: if it holds more, it does not say how to page to them, so only this page was listed.`;
  }
}

export function registerPetsList(pets: Command, runVerb: RunVerb): void {
  const list = declarePetsList(pets);
  list.action((options) => runVerb(list, () => options, runPetsList));
}
