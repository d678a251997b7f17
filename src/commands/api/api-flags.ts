import { DRY_RUN, dryRunOption, idempotencyKeyOption } from '../../cmdutil/options.js';
import type { Command } from '@commander-js/extra-typings';

import { helpProse } from '../../cmdutil/help-text.js';
import type { FlagsOf } from '../../cmdutil/run-verb.js';

/** A -f (a string) or -F (typed) field, in the order given. */
export interface ApiField {
  typed: boolean;
  text: string;
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

/**
 * `api`'s argument and flags, declared once. -f and -F share one list (`fields`), so the
 * body's fields keep the order they were given in.
 */
export function declareApi(program: Command) {
  const fields: ApiField[] = [];
  const field = (typed: boolean) => (text: string) => {
    fields.push({ typed, text });
    return fields;
  };
  const command = program
    .command('api')
    .description('Send any request the service offers, with the profile’s key and safety')
    .argument(
      '<path>',
      'path under the base URL (/store/orders), quickstart:/PATH, or a URL on its origin',
    )
    .option(
      '-X, --method <method>',
      'GET, HEAD, OPTIONS, POST, PUT, PATCH or DELETE (default: GET, POST with fields or --input)',
    )
    .option(
      '-f, --raw-field <key=value>',
      'a string field: a query parameter of a GET, else in the JSON body',
      field(false),
    )
    .option(
      '-F, --field <key=value>',
      'a typed field: true, false, null, a number sent as typed, @FILE for a file’s text; key[] and key[sub] nest',
      field(true),
    )
    .option(
      '--input <file>',
      'the JSON body, from a file or - for stdin (fields then go in the query)',
    )
    .option(
      '-H, --header <line>',
      "a request header, 'Name: value' (not the key: it comes from the profile)",
      collect,
    )
    .option(
      '--paginate',
      'follow Link rel="next" pages of a list (NDJSON streams them; JSON is one array)',
    )
    .option('-i, --include', 'print the status and response headers on stderr')
    .option(
      '--raw',
      'write a text body as the service sent it, control characters and all (default: each shown as ^X, as cat -v shows it)',
    )
    .addOption(idempotencyKeyOption('any request'))
    .addOption(dryRunOption(DRY_RUN.request))
    .addHelpText(
      'after',
      helpProse(`
Examples:
  $ petstore api /store/orders
  $ petstore api /pets -f status=sold -f limit=100 --paginate -o ndjson
  $ petstore api -X POST /pets -F name=Rex -F categoryId=9223372036854775807
  $ petstore api quickstart:/messages -f message=hello --dry-run

Retries, the Idempotency-Key of every write, what an unanswered write means, exit codes and
the masking of the key are those of every other command. A key is never taken on the command
line: -H Authorization is refused.`),
    );
  return { command, fields };
}

/** The flags as the request is built from them: -f and -F as one list of fields. */
export type ApiFlags = Omit<
  FlagsOf<ReturnType<typeof declareApi>['command']>,
  'rawField' | 'field'
> & { fields?: ApiField[] };
