import { open, realpath, rename, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { parseJson } from '../core/json.js';
import { randomHex } from '../core/random-hex.js';
import { encodeEntry, type DoneEntry, type RunHeader } from './journal-entries.js';
import { readJournal } from './journal-read.js';

/**
 * A finished journal, made small: once every record has a known outcome, a later reader needs
 * only what each became (the pet, or the error that refused it), whether it was printed, and
 * which attempt decided it; the key is made again from the batch and the digest is in the
 * header. So the first run's header, then one `done` line per record, replace the journal's
 * history (a queued, sending, created and printed line per record, and every resume's header):
 * about a third of its size. Written beside it and renamed over it, so a crash leaves either
 * journal whole. Only the run holding the journal's locks compacts it.
 */

/** The sizes before and after, in bytes; undefined when the journal is not finished. */
export interface Compacted {
  before: number;
  after: number;
}

/** The first line of the journal: its first run's header, as written. */
async function firstHeader(path: string): Promise<RunHeader> {
  const file = await open(path, 'r');
  try {
    const chunk = Buffer.alloc(64 * 1024);
    let text = '';
    for (let at = 0; !text.includes('\n');) {
      const { bytesRead } = await file.read(chunk, 0, chunk.length, at);
      if (bytesRead === 0) break;
      text += chunk.subarray(0, bytesRead).toString('utf8');
      at += bytesRead;
    }
    return parseJson(text.slice(0, text.indexOf('\n'))) as RunHeader;
  } finally {
    await file.close();
  }
}

export async function compactJournal(given: string): Promise<Compacted | undefined> {
  // The journal itself, not a link to it: renamed over, a link would become a second journal.
  const path = await realpath(given);
  const journal = await readJournal(path);
  if (journal.states.size !== journal.records) return undefined;
  const lines: Buffer[] = [];
  for (let record = 1; record <= journal.records; record++) {
    const state = journal.states.get(record);
    if (state === undefined || state.outcome === 'unknown') return undefined;
    const entry: DoneEntry = { type: 'done', record };
    if (state.attempt !== 1) entry.attempt = state.attempt;
    if (state.outcome === 'created') {
      entry.pet = state.pet;
      if (!state.printed) entry.printed = false;
      if (state.replayed) entry.replayed = true;
    } else {
      // Journals of earlier versions may not say why.
      entry.error = state.error ?? { code: 'failed', message: 'refused by the service', status: 0 };
    }
    lines.push(encodeEntry(entry));
  }
  const header = await firstHeader(path);
  if (header.batch === undefined || header.digests === undefined) return undefined;
  const before = (await stat(path)).size;
  const scratch = `${path}.compacting-${randomHex(6)}`;
  const file = await open(scratch, 'wx', 0o600);
  try {
    await file.writeFile(Buffer.concat([encodeEntry({ ...header, type: 'run' }), ...lines]));
    await file.sync();
  } finally {
    await file.close();
  }
  await rename(scratch, path);
  // The rename itself on disk: a crash now leaves the compacted journal, not neither.
  const folder = await open(dirname(path), 'r');
  await folder.sync().finally(() => folder.close());
  return { before, after: (await stat(path)).size };
}
