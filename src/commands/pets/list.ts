import { Option, type Command } from 'commander';
import { helpProse } from '../../cmdutil/help-text.js';
import { parseFields } from '../../cmdutil/fields.js';
import { parseLimit, parseStatus } from '../../cmdutil/flags.js';
import type { RunVerb } from '../../cmdutil/run-verb.js';
import type { RunOutput, RunServices } from '../../context/context.js';
import { formatSpec } from '../../output/formats.js';
import { count } from '../../output/progress.js';
import { LIST_LIMIT, type PetStatus } from '../../core/interface.js';
import { MAX_ITEMS } from '../../core/contract.js';
import { parseWholeNumber } from '../../core/parse-number.js';
import { PET_COLUMNS, PET_FIELDS } from './columns.js';
import { walkPages } from './page-walk.js';

export interface PetsListOptions {
  status?: PetStatus | undefined;
  /** The page size asked of the service. */
  limit?: number | undefined;
  /** Follow Link rel=next to the last page. */
  all?: boolean | undefined;
  /** Follow the pages until this many pets. */
  maxItems?: number | undefined;
  fields?: string[] | undefined;
}

interface Flags {
  status?: string;
  limit?: string;
  all?: boolean;
  maxItems?: string;
  fields?: string;
}

export function toPetsListOptions(flags: Flags): PetsListOptions {
  return {
    status: parseStatus(flags.status),
    limit: parseLimit(flags.limit),
    all: flags.all === true,
    maxItems:
      flags.maxItems === undefined
        ? undefined
        : parseWholeNumber(flags.maxItems, '--max-items', MAX_ITEMS),
    fields: parseFields(flags.fields, PET_FIELDS),
  };
}

const plural = (count: number) => `${count} pet${count === 1 ? '' : 's'}`;

export async function runPetsList(
  ctx: RunOutput & RunServices,
  options: PetsListOptions,
): Promise<void> {
  const client = await ctx.client();
  const follow = options.all === true || options.maxItems !== undefined;
  // Following pages: the largest page the interface allows means the fewest requests.
  const pageSize =
    options.limit ??
    (follow ? Math.min(LIST_LIMIT.max, options.maxItems ?? LIST_LIMIT.max) : undefined);
  const rows = await ctx.openRows(PET_COLUMNS, { fields: options.fields });
  const progress = follow ? ctx.progressLine({ interruptible: true }) : undefined;
  let pages = 0;
  const result = await walkPages({
    fetch: (next) => client.listPetsPage(next ?? { status: options.status, limit: pageSize }),
    onPets: (pets) => {
      rows.write(pets);
      pages++;
      progress?.update(() => `pets ${count(rows.count)} · pages ${count(pages)}`);
    },
    follow,
    maxItems: options.maxItems,
    stopped: () => ctx.io.stdoutClosed(),
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
  const reachedMax = options.maxItems !== undefined && result.pets >= options.maxItems;
  if (!follow && result.more) {
    ctx.notice(
      `Showing the first ${plural(result.pets)}; the service has more. Use --all for every page, or --max-items N.`,
    );
  } else if (options.maxItems !== undefined && result.more) {
    ctx.notice(`Stopped at --max-items ${options.maxItems}; the service has more.`);
  } else if (follow && result.pages === 1 && result.lastPageUnlinked && !reachedMax) {
    // One full page and no Link: a service that does not paginate may hold more. A page that
    // is not full is the whole list: nothing to say.
    if (pageSize !== undefined && result.pets >= pageSize) {
      ctx.notice(
        `The service sent no Link rel="next" after a full page of ${plural(result.pets)}: if it holds more, it does not say how to page to them, so only this page was listed.`,
      );
    }
  }
}

export function registerPetsList(pets: Command, runVerb: RunVerb): void {
  pets
    .command('list')
    .alias('ls')
    .description('List animals (GET /pets), one page or every page')
    .option('--status <status>', 'only animals with this status: available, pending or sold')
    .option(
      '--limit <n>',
      `page size, ${LIST_LIMIT.min} to ${LIST_LIMIT.max} (service default ${LIST_LIMIT.default}; ${LIST_LIMIT.max} with --all or --max-items)`,
    )
    .addOption(
      new Option('--all', 'follow the pages (Link rel="next") to the end of the list').conflicts(
        'maxItems',
      ),
    )
    .option('--max-items <n>', 'follow the pages until N animals (any N)')
    .option('--fields <list>', `only these fields, in this order: ${PET_FIELDS.join(',')}`)
    .addHelpText(
      'after',
      helpProse(`
Examples:
  $ petstore pets list
  $ petstore pets list --status available --limit 50
  $ petstore pets list --all -o ndjson | wc -l
  $ petstore pets list --max-items 250 -o csv --fields id,name > pets.csv
  $ petstore pets list --json | jq '.[].name'`),
    )
    .action((flags: Flags, command: Command) =>
      runVerb(command, () => toPetsListOptions(flags), runPetsList),
    );
}
