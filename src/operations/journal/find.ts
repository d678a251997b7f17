import { stat } from 'node:fs/promises';
import { UsageError } from '../../core/errors.js';
import { listJournals } from './list.js';

/**
 * The journal `--resume` names: a path, or else the batch id of a journal in the journals
 * folder (what `journal list` shows and the run's summary says). A batch with journals of
 * several runs (a named batch run again) is refused: which to complete is the user's choice.
 */
export async function findJournal(given: string, journalsDir: string): Promise<string> {
  const exists = await stat(given).then(
    () => true,
    () => false,
  );
  if (exists) return given;
  // A run names its journal after its batch: only those are read, not every journal.
  const named = `.${given.replace(/[/:]/g, '_')}.journal`;
  const matching = (await listJournals(journalsDir, (name) => name.endsWith(named))).filter(
    (journal) => journal.batch === given,
  );
  if (matching.length === 1) return matching[0]!.path;
  if (matching.length > 1) {
    throw new UsageError(
      `batch ${given} has ${matching.length} journals: ${matching.map((journal) => journal.path).join(', ')}`,
      { hint: 'Give --resume the path of the one to complete (petstore journal list shows each).' },
    );
  }
  // Neither: the journal reader says the path cannot be read, and how to find the journal.
  return given;
}
