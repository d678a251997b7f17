import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { DRAFT_NAME } from '../../bulk/journal-draft.js';
import { removeLeftScratch } from '../../bulk/import-source.js';
import { tryLock } from '../../core/kernel-lock.js';
import { JournalBusyError } from '../../bulk/journal-file.js';
import { JournalStore } from '../../bulk/journal-store.js';
import { bootId } from '../../core/boot-id.js';
import { listJournals, summaryOf, type JournalSummary } from '../../bulk/journal-list.js';

/** What `journal prune` is asked to remove. */
export interface PruneRequest {
  /** Only journals no run has written to for this long (ms); undefined: any age. */
  olderThanMs: number | undefined;
  /** Unfinished (and unreadable) journals too: what they alone could complete is lost. */
  force: boolean;
  /** Say what would be removed; remove nothing. */
  dryRun: boolean;
}

/** A journal removed (or, in a dry run, to be), and what was lost with it if unfinished. */
export interface Pruned {
  journal: JournalSummary;
  /** For an unfinished journal: the records only it could complete exactly once. */
  lost: string | undefined;
}

export interface PruneOutcome {
  removed: Pruned[];
  /**
   * Drafts of journals left by runs ended while they first read their input (kill -9, a power
   * cut): no journal yet, nothing sent, removed (in a dry run, to be) whatever their age.
   */
  drafts: number;
  /**
   * Copies of standard input, in the system's temporary folder, left by runs killed before
   * they could remove them: removed (in a dry run, to be).
   */
  scratch: number;
  /** Unfinished journals kept (without --force), those a run is using, and other files. */
  kept: { journal: JournalSummary; why: string; foreign?: boolean }[];
}

/** What an unfinished journal alone knows: the records a resume would complete exactly once. */
export function unfinishedText(journal: JournalSummary): string {
  if (journal.problem !== undefined) return `damaged (${journal.problem.replace(/[.;]\s*$/, '')})`;
  const parts = [
    journal.unknown > 0 ? `${journal.unknown} of unknown outcome` : '',
    journal.unsent > 0 ? `${journal.unsent} never sent` : '',
  ].filter(Boolean);
  return `${parts.join(' and ')} of ${journal.records} record${journal.records === 1 ? '' : 's'}`;
}

/**
 * Removes the journals in `folder` a later run no longer needs: finished ones (every record
 * created or refused), no run using them, older than asked. An unfinished one goes only with
 * `force`, and the outcome names what it alone could have completed.
 */
export async function pruneJournals(
  deps: { folder: string; now: number },
  request: PruneRequest,
): Promise<PruneOutcome> {
  const outcome: PruneOutcome = { removed: [], kept: [], drafts: 0, scratch: 0 };
  outcome.drafts = await removeDrafts(deps.folder, request.dryRun);
  outcome.scratch = await removeLeftScratch(request.dryRun);
  for (const listed of await listJournals(deps.folder)) {
    // Not ours to judge or remove: another file, a folder, a link, one this user cannot read.
    if (listed.foreign) {
      const why = `not a petstore journal (${listed.problem ?? 'unknown'})`;
      outcome.kept.push({ journal: listed, why, foreign: true });
      continue;
    }
    const age = deps.now - Date.parse(listed.updated);
    if (request.olderThanMs !== undefined && age < request.olderThanMs) continue;
    if (listed.inUse) {
      outcome.kept.push({ journal: listed, why: 'in use by a run' });
      continue;
    }
    if (request.dryRun) {
      await decide(listed, request, outcome, () => undefined);
      continue;
    }
    // Held while it is judged and removed: a run resuming it now keeps it, and what it says
    // is what the journal holds once no run writes to it.
    const held = await JournalStore.open(listed.path, 250).catch((error: unknown) => {
      if (error instanceof JournalBusyError) return undefined;
      return null;
    });
    if (held === undefined) {
      outcome.kept.push({ journal: listed, why: 'in use by a run' });
      continue;
    }
    try {
      // Damaged since it was listed: judged as listed (kept, unless --force).
      const journal =
        held === null
          ? listed
          : summaryOf(listed.path, listed.updated, held.header(), held.counts(bootId()));
      await decide(journal, request, outcome, async () => {
        // Removed while held: no run can open it between the judgment and the removal. Its
        // log goes with it (a killed run's), where it opened beside it, so was its own; one it
        // could not open beside may be another journal's, and stays.
        const own = held === null ? [] : [`${journal.path}-wal`, `${journal.path}-journal`];
        for (const file of [journal.path, ...own]) await rm(file, { force: true });
      });
    } finally {
      await held?.close();
    }
  }
  return outcome;
}

/**
 * Removes the drafts no run holds (see PruneOutcome.drafts); one a run is writing now is held
 * by it, and stays. Says how many were (or would be) removed.
 */
async function removeDrafts(folder: string, dryRun: boolean): Promise<number> {
  let names: string[];
  try {
    names = await readdir(folder);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names.filter((found) => DRAFT_NAME.test(found))) {
    const path = join(folder, name);
    const lock = await tryLock(path, { announce: false }).catch(() => undefined);
    if (lock?.taken !== true) continue;
    try {
      if (!dryRun) {
        for (const file of [path, `${path}-journal`]) await rm(file, { force: true });
      }
      removed++;
    } finally {
      await lock.release();
    }
  }
  return removed;
}

/** Removes the journal if the request allows it (`remove`), and says which it did. */
async function decide(
  journal: JournalSummary,
  request: PruneRequest,
  outcome: PruneOutcome,
  remove: () => Promise<void> | undefined,
): Promise<void> {
  if (!journal.finished && !request.force) {
    outcome.kept.push({ journal, why: unfinishedText(journal) });
    return;
  }
  await remove();
  outcome.removed.push({ journal, lost: journal.finished ? undefined : unfinishedText(journal) });
}
