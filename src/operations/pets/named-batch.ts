import { option, phrase } from '../../core/phrase.js';
import { JournalStore } from '../../bulk/journal-store.js';
import { bootId } from '../../core/boot-id.js';
import { UsageError } from '../../core/errors.js';
import { namedForBatch } from '../journal/find.js';
import { listJournals } from '../journal/list.js';
import type { Prepared } from './add-batch-plan.js';

/**
 * A named batch run again from scratch (no --resume) sends each record with the key of its
 * place in the input. If an earlier run of the batch sent another record with that key (a row
 * deleted or moved, not fixed in place), the service would answer it as the earlier record,
 * and the records after it would go out under keys never sent: created twice. So every journal
 * of the batch in the folder is read first, and a key it sent for other content refuses the
 * run, nothing sent (an outside probe deleted a bad row and re-ran its batch).
 */
export async function refuseMovedRecords(
  prepared: Prepared,
  journalsDir: string,
  keyOf: (record: number) => string,
): Promise<void> {
  if (!prepared.namedBatch || prepared.earlier !== undefined) return;
  // Only the journals a run of this batch names so: an agent's every add_pets call is a named
  // batch, and the folder may hold many.
  const journals = (await listJournals(journalsDir, namedForBatch(prepared.batch))).filter(
    (journal) => journal.batch === prepared.batch && !journal.inUse && !journal.foreign,
  );
  if (journals.length === 0) return;
  const { records, digests } = prepared;
  const now = new Map<string, { record: number; digest: string }>();
  for (let record = 1; record <= records.count; record++) {
    now.set(keyOf(record), { record, digest: digests.records[record - 1]! });
  }
  for (const journal of journals) {
    const earlier = await JournalStore.readAt(journal.path, bootId()).catch(() => undefined);
    for (const state of earlier?.states.values() ?? []) {
      const same = now.get(state.key);
      if (same === undefined || same.digest.startsWith(state.digest)) continue;
      throw new UsageError(
        `record ${same.record} is not the record batch ${prepared.batch} sent with its key before (in ${journal.path}): records were added, removed or moved since; nothing was sent`,
        {
          hint: phrase`Keep the records where the first run had them (fix a bad one in place, leave it out by ${option('skipInvalid')}), or send the rest as a new batch (another ${option('batchId')}).`,
        },
      );
    }
  }
}
