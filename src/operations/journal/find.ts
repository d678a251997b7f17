import { command, option, phrase } from '../../core/phrase.js';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { journalInUse } from '../../bulk/journal-file.js';
import { UsageError } from '../../core/errors.js';
import { listJournals, namedForBatch, sameService, serviceTag } from '../../bulk/journal-list.js';

/** A batch id that names more than one journal (two runs of the batch at once): which to complete? */
export class ManyJournalsError extends UsageError {
  constructor(
    readonly batch: string,
    readonly journals: readonly string[],
  ) {
    super(`batch ${batch} has ${journals.length} journals: ${journals.join(', ')}`, {
      hint: phrase`Give ${option('resume')} the path of the one to complete (${command('journal list')} shows each).`,
    });
  }
}

/**
 * The journal `--resume` names: a path, or else the batch id of a journal in the journals
 * folder (what `journal list` shows and the run's summary says), or the start of one that no
 * other batch there starts with (what `journal list` shows at a terminal). A batch with
 * journals of several runs (a named batch run again) is refused: which to complete is the
 * user's choice.
 */
export async function findJournal(given: string, journalsDir: string): Promise<string> {
  const exists = await stat(given).then(
    () => true,
    () => false,
  );
  if (exists) return given;
  const whole = await journalOfBatch(given, journalsDir, { anyName: true });
  if (whole !== undefined) return whole;
  // Neither: the journal reader says the path cannot be read, and how to find the journal.
  return (await journalOfBatchStart(given, journalsDir)) ?? given;
}

/** The shortest start of a batch id that may name it (a UUID's first group and more). */
export const MIN_BATCH_START = 8;

/** The journal of the one batch whose id starts so, if only one does. */
async function journalOfBatchStart(start: string, journalsDir: string) {
  if (start.length < MIN_BATCH_START || start.includes('/')) return undefined;
  const journals = (await listJournals(journalsDir)).filter(
    (journal) => !journal.inUse && journal.batch?.startsWith(start) === true,
  );
  const batches = [...new Set(journals.flatMap((journal) => journal.batch ?? []))];
  if (batches.length > 1) {
    throw new UsageError(`${start} starts ${batches.length} batches: ${batches.join(', ')}`, {
      hint: phrase`Give more of the batch id (${command('journal list', { json: '' })} shows each whole).`,
    });
  }
  return batches.length === 1 ? journalOfBatch(batches[0]!, journalsDir) : undefined;
}

/**
 * The journal of a batch in the journals folder, or undefined when it has none; never a path
 * (an agent's batch id is only ever a batch id). With `service`, only that service's journals
 * count: a batch of another service is no batch here, and nothing of it is named.
 */
export async function journalOfBatch(
  batch: string,
  journalsDir: string,
  only: { service?: string; anyName?: boolean } = {},
): Promise<string | undefined> {
  // A run names its journal after its batch: only those are read, not every journal; with
  // `anyName`, every journal when none is so named (one renamed, or restored from a backup).
  let candidates = await listJournals(journalsDir, namedForBatch(batch));
  if (candidates.length === 0 && only.anyName === true) {
    candidates = (await listJournals(journalsDir)).filter((journal) => !journal.inUse);
  }
  // One a run holds now cannot be read: it may be this batch's, being sent (unless its name
  // says it sends to another service).
  const tag = only.service === undefined ? undefined : serviceTag(only.service);
  const inUse = candidates.find((journal) => {
    if (journal.inUse !== true) return false;
    const named = /-s([0-9a-f]{8})\./.exec(basename(journal.path))?.[1];
    return tag === undefined || named === undefined || named === tag;
  });
  if (inUse !== undefined) throw journalInUse(inUse.path);
  const matching = candidates.filter(
    (journal) =>
      journal.batch === batch &&
      (only.service === undefined || sameService(journal.service, only.service)),
  );
  if (matching.length > 1) {
    throw new ManyJournalsError(
      batch,
      matching.map((journal) => journal.path),
    );
  }
  return matching[0]?.path;
}
