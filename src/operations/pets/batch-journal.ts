import { option, phrase, type Hint } from '../../core/phrase.js';
import { join, resolve } from 'node:path';
import type { RunHeader } from '../../bulk/journal-entries.js';
import { JournalStore } from '../../bulk/journal-store.js';
import { bootId } from '../../core/boot-id.js';
import { makeFolder } from '../../core/make-folder.js';
import { randomHex } from '../../core/random-hex.js';
import { networkFileSystem } from '../../core/network-fs.js';
import { serviceTag } from '../journal/find.js';
import type { AddBatchRequest, Prepared } from './add-batch-plan.js';

/**
 * Where a new run keeps its journal: in the journals folder (the user's state folder), named
 * by the time and the batch, so `journal list` finds it, `--resume BATCH` names it, and no
 * earlier journal is ever overwritten.
 */
async function defaultJournalPath(
  journalsDir: string,
  batch: string,
  service: string,
): Promise<string> {
  // Random after the time: two runs of one batch id in one millisecond (against two services,
  // say) each get a journal of their own, not one refused as in use by the other. The service
  // named too: a journal a run holds cannot be read, but its name says where it sends.
  const time = new Date().toISOString().replace(/[:.]/g, '-');
  const stamp = `${time}-${randomHex(4)}-s${serviceTag(service)}`;
  await makeFolder(journalsDir, 0o700);
  // A named batch may hold / and :, which a file name cannot.
  return join(journalsDir, `${stamp}.${batch.replace(/[/:]/g, '_')}.journal`);
}

/** Where the locks of MCP batches are kept: the user's data folder. */
export const locksFolder = (dataDir: string) => join(dataDir, 'locks');

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

/**
 * The journal of this run: the resumed one (`held`, locked since before it was read), which
 * gains this run's row, or a new one.
 */
export async function openJournal(
  deps: { target: { label: string; service: string }; journalsDir: string },
  request: AddBatchRequest,
  prepared: Prepared,
  held: JournalStore | undefined,
  warn: (message: Hint) => void = () => undefined,
): Promise<JournalStore> {
  const { input } = prepared;
  const header: RunHeader = {
    input: input === '-' ? '-' : resolve(input),
    records: prepared.digests.records.length,
    target: deps.target.label,
    service: deps.target.service,
    at: new Date().toISOString(),
    batch: prepared.batch,
    digest: prepared.digests.whole,
    digests: prepared.digests.compact,
    boot: bootId(),
    namedBatch: prepared.namedBatch,
    inputFormat: prepared.inputFormat,
    skipInvalid: prepared.skipInvalid,
    rejected: prepared.records.rejected.length,
  };
  if (held !== undefined) {
    held.startRun(header);
    return held;
  }
  // Absolute, so the command that completes the run works from any folder.
  const path = resolve(
    request.journal ??
      (await defaultJournalPath(deps.journalsDir, prepared.batch, deps.target.service)),
  );
  await warnIfNetworked(path, warn);
  return JournalStore.create(path, header);
}
