import { createHash } from 'node:crypto';
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { JournalBusyError } from './journal-file.js';
import type { JournalHeader } from './record-states.js';
import { JournalStore, type JournalCounts } from './journal-store.js';
import { UsageError } from '../core/errors.js';
import { bootId } from '../core/boot-id.js';

/**
 * The journals of a folder as `journal list` shows them, and as a new import looks through
 * them: each one's batch, input, digest, service and outcomes, read from its header and a
 * count of its rows (never its records one by one).
 */

/** What `journal list` says of one journal: its batch, input, outcomes and age. */
export interface JournalSummary {
  path: string;
  /** The batch its keys are made from: what `pets import --resume BATCH` takes. */
  batch: string | undefined;
  /** The input's path, or "-" for standard input. */
  input: string | undefined;
  /** The profile or URL it sent to. */
  target: string | undefined;
  /** The service itself, as its run named it (a resume must reach the same one). */
  service?: string | undefined;
  /** The digest of its input's records: the same content wherever it lies, whatever its name. */
  digest?: string | undefined;
  /** The same in any order (InputDigest.content); absent in older journals. */
  content?: string | undefined;
  /** The agent's client whose batch it is, when an agent's. */
  client?: string | undefined;
  /** The part of the input it sends (--shard I/N). */
  shard?: string | undefined;
  records: number;
  created: number;
  failed: number;
  unknown: number;
  /** Never sent: the run stopped before them. */
  unsent: number;
  /** When its first run started, and when a run last wrote to it (ISO 8601). */
  started: string | undefined;
  updated: string;
  /**
   * Every record has a known outcome (created, or refused by the service): a resume would send
   * nothing unless asked to retry the refused. Else unknown or unsent records remain, which
   * only this journal can complete exactly once.
   */
  finished: boolean;
  /** Why it could not be read (damaged, not a journal); its counts are then zero. */
  problem?: string | undefined;
  /** A run holds it now: what it holds is that run's to say until it ends. */
  inUse?: boolean | undefined;
  /** It is no petstore journal at all (another file, a folder, a link to nothing): never pruned. */
  foreign?: boolean | undefined;
}

/** The summary of one journal file. */
export async function summarizeJournal(path: string): Promise<JournalSummary> {
  const info = await lstat(path);
  const updated = info.mtime.toISOString();
  if (!info.isFile()) {
    const what = info.isSymbolicLink()
      ? 'a link'
      : info.isDirectory()
        ? 'a folder'
        : 'not a regular file';
    return unreadable(path, updated, `${what}, not a journal file`, true);
  }
  try {
    // A run holds its journal's lock until it ends: one in use is named so, not waited for.
    return await JournalStore.reading(
      path,
      (journal) => summaryOf(path, updated, journal.header(), journal.counts(bootId())),
      250,
    );
  } catch (error) {
    if (error instanceof JournalBusyError) {
      return { ...unreadable(path, updated, 'in use by a run', false), inUse: true };
    }
    const problem = error instanceof Error ? error.message : String(error);
    // Not a journal, or one this user cannot read: either way not ours to judge or remove.
    const foreign = /is not a petstore journal|cannot (read|open) the journal/.test(problem);
    return unreadable(path, updated, problem, foreign);
  }
}

/** A journal's summary, from its header and counts. */
export function summaryOf(
  path: string,
  updated: string,
  header: JournalHeader,
  counts: JournalCounts,
): JournalSummary {
  const { created, failed, unknown, unsent } = counts;
  return {
    path,
    batch: header.batch,
    input: header.input,
    target: header.target,
    service: header.service,
    digest: header.digest,
    content: header.content,
    client: header.client,
    shard: header.shard,
    records: header.records,
    created,
    failed,
    unknown,
    unsent,
    started: header.started,
    updated,
    finished: unknown === 0 && unsent === 0,
  };
}

function unreadable(
  path: string,
  updated: string,
  problem: string,
  foreign: boolean,
): JournalSummary {
  return {
    path,
    batch: undefined,
    input: undefined,
    target: undefined,
    records: 0,
    created: 0,
    failed: 0,
    unknown: 0,
    unsent: 0,
    started: undefined,
    updated,
    finished: false,
    problem,
    foreign,
  };
}

/** The journals in a folder (`*.journal`), oldest first; none when it does not exist. */
export async function listJournals(
  folder: string,
  named: (name: string) => boolean = () => true,
): Promise<JournalSummary[]> {
  const names = await readdir(folder).catch((error: unknown) => {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return [];
    throw new UsageError(`cannot read the journals folder ${folder}: ${code ?? String(error)}`, {
      hint: 'Check its permissions (it is $XDG_STATE_HOME/petstore/journals, else ~/.local/state/petstore/journals).',
    });
  });
  const summaries = await Promise.all(
    names
      .filter((name) => name.endsWith('.journal') && named(name))
      .map((name) => summarizeJournal(join(folder, name))),
  );
  return summaries.sort((a, b) => (a.started ?? a.updated).localeCompare(b.started ?? b.updated));
}

/** A short, fixed name of a batch for file names: a batch id may be anything, even a secret. */
export function batchTag(batch: string): string {
  return createHash('sha256').update(`petstore batch\n${batch}`).digest('hex').slice(0, 12);
}

/**
 * Whether a journal's file name is one a run of this batch gives its journal: by its tag, or
 * (journals named before batches were tagged) by the batch id itself.
 */
export function namedForBatch(batch: string): (name: string) => boolean {
  const tagged = `.b${batchTag(batch)}.journal`;
  const named = `.${batch.replace(/[/:]/g, '_')}.journal`;
  return (name) => name.endsWith(tagged) || name.endsWith(named);
}

/**
 * A service as one, however its URL was typed: letter case of scheme and host, a default port,
 * `127.1` for `127.0.0.1`, `..` segments and slashes doubled or at the end (what WHATWG's URL
 * parsing and a trim make the same). Not an address (the embedded `sandbox`): as it is.
 */
export function serviceIdentity(service: string): string {
  let url: URL;
  try {
    url = new URL(service);
  } catch {
    return service;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return service;
  const path = url.pathname.replace(/\/{2,}/g, '/').replace(/\/+$/, '');
  return `${url.protocol}//${url.host}${path}${url.search}`;
}

/** Whether two services, as journals and runs name them, are one (serviceIdentity). */
export function sameService(a: string | undefined, b: string | undefined): boolean {
  return a !== undefined && b !== undefined && serviceIdentity(a) === serviceIdentity(b);
}

/** A short name of a service, in the names of its journals: which service a held one sends to. */
export function serviceTag(service: string): string {
  return createHash('sha256').update(serviceIdentity(service)).digest('hex').slice(0, 8);
}
