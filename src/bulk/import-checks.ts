import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { tryLock } from '../core/kernel-lock.js';
import { bootId } from '../core/boot-id.js';
import { Cursor } from '../core/cursor.js';
import { UsageError } from '../core/errors.js';
import { PET_STATUSES } from '../core/interface.js';
import { makeFolder } from '../core/make-folder.js';
import { networkFileSystem } from '../core/network-fs.js';
import { command, option, phrase, type Hint } from '../core/phrase.js';
import { randomHex } from '../core/random-hex.js';
import { recordKey } from './batch.js';
import type { InputCheck } from './check.js';
import {
  batchTag,
  listJournals,
  namedForBatch,
  sameService,
  serviceIdentity,
  serviceTag,
  type JournalSummary,
} from './journal-list.js';
import { JournalStore } from './journal-store.js';
import type { JournalDraft } from './journal-draft.js';
import { recordsText } from './records.js';
import type { UnknownSinceQueued } from './record-states.js';

/**
 * What an import checks and says before it sends anything: what its records carry, what an
 * earlier run left unknown, whether the same input was imported before (once per sheet), and
 * whether a named batch's earlier runs sent its keys for other records.
 */

/**
 * Where a new run keeps its journal: in the journals folder (the user's state folder), named
 * by the time, the service and the batch (by a digest of its id, never the id itself), so
 * `journal list` finds it, `--resume BATCH` names it, and no earlier journal is overwritten.
 */
export async function defaultJournalPath(
  journalsDir: string,
  batch: string,
  service: string,
): Promise<string> {
  // Random after the time: two runs of one batch id in one millisecond (against two services,
  // say) each get a journal of their own, not one refused as in use by the other.
  const time = new Date().toISOString().replace(/[:.]/g, '-');
  await makeFolder(journalsDir, 0o700);
  return join(
    journalsDir,
    `${time}-${randomHex(4)}-s${serviceTag(service)}.b${batchTag(batch)}.journal`,
  );
}

/**
 * Says when the journal is on a network file system, whose locks another machine's run may not
 * see: two runs could then send the same records at once.
 */
export async function warnIfNetworked(path: string, warn: (message: Hint) => void): Promise<void> {
  const kind = await networkFileSystem(path);
  if (kind === undefined) return;
  warn(
    phrase`the journal ${path} is on a network file system (${kind}), whose locks a run on another machine may not see: run one resume of it at a time, or keep journals on a local disk (${option('journal', 'FILE')})`,
  );
}

/** "record 3", "records 3, 5 and 9", or the first ten and how many more. */
function recordsNamed(records: number[]): string {
  if (records.length === 1) return `record ${records[0]}`;
  const shown = records.slice(0, 10);
  const more = records.length - shown.length;
  const list =
    more > 0
      ? `${shown.join(', ')} and ${more} more`
      : `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}`;
  return `records ${list}`;
}

/**
 * Says which records the journal counts unknown only because it cannot prove they were never
 * sent (queued, no line of their sending), and why; a resume sends them with --retry-unknown.
 */
export function warnUnknownSinceQueued(
  widened: UnknownSinceQueued,
  warn: (message: string) => void,
) {
  const why = {
    noBoot:
      "This machine's boot could not be told (no boot id, no time since boot), so a power loss since they were queued cannot be ruled out, and a sending not yet on disk may have been lost",
    otherBoot:
      'The machine has booted since they were queued, and a sending not yet on disk may have been lost',
  };
  for (const kind of ['noBoot', 'otherBoot'] as const) {
    const records = widened[kind];
    if (records.length === 0) continue;
    const one = records.length === 1;
    warn(
      `${recordsNamed(records)} queued and never journaled as sent: ${one ? 'its' : 'their'} outcome cannot be known, so ${one ? 'it counts' : 'they count'} as unknown. ${why[kind]}`,
    );
  }
}

/**
 * What a new run says once of its records as read: ids it ignores (a listing read back), and
 * statuses sent in the interface's letter case.
 */
export function warnOfRecords(check: InputCheck, source: string, warn: (message: string) => void) {
  const ids = check.ignoredIds;
  if (ids > 0) {
    const all = ids === check.records;
    const which = all ? 'every record' : ids === 1 ? '1 record' : `${ids} records`;
    const carry = ids === 1 || all ? 'carries' : 'carry';
    warn(
      `${which} of ${source} ${carry} an id, which is ignored: ${ids === 1 ? 'it is created as a new pet' : 'they are created as new pets'}, and the service gives each its own id.`,
    );
  }
  const cased = check.statusCaseChanged;
  if (cased > 0) {
    const records = cased === 1 ? '1 record gives its' : `${cased} records give their`;
    warn(
      `${records} status in another letter case (such as Available): each is sent in the interface's spelling (${PET_STATUSES.join(', ')}).`,
    );
  }
}

/**
 * Holds the input (by content, for the service, and the part of it a shard sends) for as long
 * as this run imports it: a second run of the same sheet started meanwhile, whose journal this
 * one holds and no other run can read, is refused instead of sending it all again. Resolves
 * to the release; held by another run, refused (AlreadyImportedError), naming it.
 */
export async function holdInput(
  journalsDir: string,
  run: { content: string; service: string; shard: string | undefined; source: string },
): Promise<() => Promise<void>> {
  const folder = join(journalsDir, '.inputs');
  await makeFolder(folder, 0o700);
  const name = createHash('sha256')
    .update(`${serviceIdentity(run.service)}\n${run.content}\n${run.shard ?? ''}`)
    .digest('hex')
    .slice(0, 32);
  const lock = await tryLock(join(folder, `${name}.lock`));
  if (lock.taken) return lock.release;
  const who =
    lock.owner === undefined
      ? 'another run'
      : `another run (${lock.owner.otherNamespace === true ? '' : `pid ${lock.owner.pid} `}on ${lock.owner.host}${lock.owner.since === undefined ? '' : `, since ${lock.owner.since}`})`;
  throw new AlreadyImportedError(
    `${run.source} is being imported into this service now, by ${who}; nothing was sent`,
    {
      hint: phrase`Let that run end: the same input is then refused as imported, and one interrupted is completed by ${option('resume')}. To create its records again as new pets, on purpose, run it with ${option('again')}.`,
    },
  );
}

/** An earlier import of the same input (by content) to the same service, by another batch. */
export class AlreadyImportedError extends UsageError {}

/**
 * Once per sheet: refuses, before anything is sent, a new batch whose records (by content,
 * wherever the input lies and whatever it is called) an earlier batch imported into the same
 * service: in full (naming it, and how to send them again on purpose), or not (pointing at the
 * run that completes it). The journals folder is where earlier imports are known.
 */
export async function refuseImportedBefore(
  journalsDir: string,
  run: {
    digest: string;
    content: string;
    service: string;
    batch: string;
    records: number;
    source: string;
  },
): Promise<void> {
  const earlier = (await listJournals(journalsDir)).filter(
    (journal) =>
      // In any order; a journal too old to say is matched in order.
      (journal.content !== undefined
        ? journal.content === run.content
        : journal.digest === run.digest) &&
      sameService(journal.service, run.service) &&
      journal.batch !== run.batch &&
      journal.problem === undefined,
  );
  if (earlier.length === 0) return;
  const whole = earlier.find((journal) => journal.created === journal.records);
  const again = phrase`To create ${whole ? 'them' : 'every record'} again as new pets, on purpose, run it with ${option('again')}.`;
  if (whole !== undefined) {
    throw new AlreadyImportedError(
      `${run.source} was imported in full before: batch ${whole.batch} created its ${recordsText(run.records)} in ${whole.target} on ${day(whole)} (journal ${whole.path}); nothing was sent`,
      { hint: again },
    );
  }
  const open = earlier.at(-1)!;
  throw new AlreadyImportedError(
    `${run.source} was imported before by batch ${open.batch} (${day(open)}), which did not create every record: ${unfinished(open)}; nothing was sent`,
    {
      hint: [
        ...phrase`Complete that run: ${command('pets import', {
          resume: open.batch,
          retryUnknown: '',
          ...(open.failed > 0 ? { retryFailed: '' } : {}),
        })}. `,
        ...again,
      ],
    },
  );
}

const day = (journal: JournalSummary) =>
  (journal.started ?? journal.updated).slice(0, 16).replace('T', ' ') + ' UTC';

function unfinished(journal: JournalSummary): string {
  return [
    `${journal.created} created`,
    journal.failed ? `${journal.failed} failed` : '',
    journal.unknown ? `${journal.unknown} unknown` : '',
    journal.unsent ? `${journal.unsent} never sent` : '',
  ]
    .filter(Boolean)
    .join(', ');
}

/**
 * The input name an earlier run of the batch made its keys from, when it read the same input
 * (by content) for the same service: a copy of the sheet, or the sheet on standard input, is
 * the same records, and goes with the same keys. Undefined: no such run.
 */
export async function keyInputOfBatch(
  journalsDir: string,
  run: { batch: string; digest: string; service: string },
): Promise<string | undefined> {
  const journals = (await listJournals(journalsDir, namedForBatch(run.batch))).filter(
    (journal) =>
      journal.batch === run.batch &&
      journal.digest === run.digest &&
      sameService(journal.service, run.service) &&
      !journal.inUse &&
      !journal.foreign,
  );
  for (const journal of journals) {
    const name = await JournalStore.reading(journal.path, (earlier) => {
      const header = earlier.header();
      return header.keyInput ?? (header.input === '-' ? '-' : header.input.replace(/^.*[\\/]/, ''));
    }).catch(() => undefined);
    if (name !== undefined) return name;
  }
  return undefined;
}

/**
 * A named batch run again from scratch (no --resume) sends each record with the key of its
 * place in the input. If an earlier run of the batch sent another record with that key (a row
 * deleted or moved, not fixed in place), the service would answer it as the earlier record,
 * and the records after it would go out under keys never sent: created twice. So every journal
 * of the batch in the folder is compared with the input, place by place (its records' places
 * and digests: the draft of this run's journal), and a place it sent other content from
 * refuses the run, nothing sent (an outside probe deleted a bad row and re-ran its batch).
 */
export async function refuseMovedRecords(
  draft: JournalDraft,
  journalsDir: string,
  run: { batch: string; inputName: string },
): Promise<void> {
  const journals = (await listJournals(journalsDir, namedForBatch(run.batch))).filter(
    (journal) => journal.batch === run.batch && !journal.inUse && !journal.foreign,
  );
  for (const journal of journals) {
    const moved = await JournalStore.reading(journal.path, (earlier) => {
      const header = earlier.header();
      const name =
        header.keyInput ?? (header.input === '-' ? '-' : header.input.replace(/^.*[\\/]/, ''));
      // Keys are made from the input's name: another file of the batch has keys of its own.
      if (name !== run.inputName) return undefined;
      if (header.format >= 2) return firstMoved(draft, sentPlaces(earlier));
      // Format 1 keeps no places: the keys it sent (at most 50,000) are compared instead.
      const byKey = new Map<string, string>();
      for (const [, state] of earlier.states(bootId())) {
        if (state.outcome !== 'failed') byKey.set(state.key, state.digest);
      }
      for (const { record, position, digest } of draft.inputs()) {
        const sent = byKey.get(recordKey(run.batch, run.inputName, position));
        if (sent !== undefined && !digest.startsWith(sent.slice(0, 16))) return record;
      }
      return undefined;
    }).catch(() => undefined);
    if (moved === undefined) continue;
    throw new UsageError(
      `record ${moved} is not the record batch ${run.batch} sent with its key before (in ${journal.path}): records were added, removed or moved since; nothing was sent`,
      {
        hint: phrase`Keep the records where the first run had them (fix a bad one in place, leave it out by ${option('skipInvalid')}), or send the rest as a new batch (another ${option('batchId')}).`,
      },
    );
  }
}

/**
 * The places of the input an earlier run sent records from, and their digests, in order: but
 * not those the service refused (failed), which created nothing under their key: a record
 * fixed in place after a refusal is the fix the refusal asked for.
 */
function* sentPlaces(earlier: JournalStore): Generator<{ position: number; digest: string }> {
  const states = new Cursor(earlier.states(bootId()));
  for (const { record, position } of earlier.inputs()) {
    const state = states.skipWhile(([at]) => at < record);
    if (state?.[0] === record && state[1].outcome !== 'failed') {
      yield { position, digest: state[1].digest };
    }
  }
}

/** The first record of the draft at a place an earlier run sent other content from. */
function firstMoved(
  draft: JournalDraft,
  sent: Iterable<{ position: number; digest: string }>,
): number | undefined {
  const mine = new Cursor(draft.inputs());
  for (const place of sent) {
    const next = mine.skipWhile(({ position }) => position < place.position);
    if (next === undefined) return undefined;
    const { record, position, digest } = next;
    if (position === place.position && !digest.startsWith(place.digest.slice(0, 16))) return record;
  }
  return undefined;
}
