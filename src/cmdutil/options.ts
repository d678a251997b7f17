import { Option } from '@commander-js/extra-typings';
import { fieldsFlag, idempotencyKeyFlag } from './flags.js';

/**
 * The options several verbs take, declared once: `.addOption(dryRunOption(DRY_RUN.request))`.
 * Each keeps its type (commander's extra typings infer it from the Option), so a verb's options
 * type still comes from its declaration.
 */

/** What --dry-run says it shows, by what the verb would do. */
export const DRY_RUN = {
  request: 'print the request that would be sent (key redacted); send nothing',
  requests: 'print the requests that would be sent (key redacted); send nothing',
  config: 'print what would change in the config file (keys masked); write nothing',
  login: 'show what would be stored (key masked); check nothing, write nothing',
  prune: 'print the journals that would be removed; remove nothing',
  historyPrune: 'say how many recorded writes would be removed; remove nothing',
} as const;

/** --dry-run: show what would be done; do nothing. */
export function dryRunOption(help: (typeof DRY_RUN)[keyof typeof DRY_RUN]) {
  return new Option('--dry-run', help);
}

/** --idempotency-key KEY: the key a write is sent with (checked: visible ASCII, 1 to 255). */
export function idempotencyKeyOption(of: 'write' | 'any request' = 'write') {
  const prefix = of === 'any request' ? 'a write: ' : '';
  return new Option(
    '--idempotency-key <key>',
    `${prefix}send with this Idempotency-Key (default: a new UUID)`,
  ).argParser(idempotencyKeyFlag);
}

/** --fields a,b,...: only these of the fields `known`, in the order given. */
export function fieldsOption(known: readonly string[]) {
  return new Option(
    '--fields <list>',
    // Listed with spaces, so help can wrap the list at a narrow terminal.
    `only these fields, in this order (comma-separated): ${known.join(', ')}`,
  ).argParser(fieldsFlag(known));
}

/** -y, --yes: do what the verb would ask a person to confirm, without asking. */
export function yesOption() {
  return new Option('-y, --yes', 'do not ask for confirmation');
}

/** --db FILE: the sandbox's SQLite file. */
export function sandboxDbOption(help: string) {
  return new Option('--db <file>', help);
}
