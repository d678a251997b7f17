import { constants } from 'node:fs';
import { access, realpath } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import type { RunHeader } from '../../bulk/journal-entries.js';
import { JournalWriter } from '../../bulk/journal-writer.js';
import { bootId } from '../../core/boot-id.js';
import { makeFolder } from '../../core/make-folder.js';
import type { AddBatchRequest, Prepared } from './add-batch-plan.js';

/**
 * Where a new run keeps its journal: beside the input when that folder is writable, else in
 * the data folder. The name carries the time, so no earlier journal is ever overwritten.
 */
async function defaultJournalPath(dataDir: string, input: string): Promise<string> {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  if (input !== '-') {
    // Beside the file itself: /dev/stdin or a link name would put it elsewhere (in /dev).
    const real = await realpath(input).catch(() => resolve(input));
    const beside = `${real}.${stamp}.journal`;
    const writable = await access(dirname(beside), constants.W_OK).then(
      () => true,
      () => false,
    );
    if (writable) return beside;
  }
  const folder = join(dataDir, 'journals');
  await makeFolder(folder, 0o700);
  return join(folder, `${input === '-' ? 'stdin' : basename(input)}.${stamp}.journal`);
}

/** Where the locks on journal files (by device and inode) are kept: the user's data folder. */
export const locksFolder = (dataDir: string) => join(dataDir, 'locks');

/** The journal of this run: the resumed one, appended to, or a new one. */
export async function openJournal(
  deps: { target: { label: string; service: string }; dataDir: string },
  request: AddBatchRequest,
  prepared: Prepared,
  unlock: (() => Promise<void>) | undefined,
): Promise<JournalWriter> {
  const { input } = prepared;
  const header: RunHeader = {
    type: request.resume !== undefined ? 'resume' : 'run',
    version: 1,
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
  };
  if (request.resume !== undefined && unlock !== undefined) {
    const journal = await JournalWriter.append(request.resume, unlock);
    const resumed = journal.endedTornLine ? { ...header, afterTornLine: true } : header;
    await journal.write(resumed).catch(async (error: unknown) => {
      await journal.close();
      throw error;
    });
    return journal;
  }
  const path = request.journal ?? (await defaultJournalPath(deps.dataDir, input));
  return JournalWriter.create(path, header, locksFolder(deps.dataDir));
}
