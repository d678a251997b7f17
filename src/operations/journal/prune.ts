import { rm } from 'node:fs/promises';
import { JournalInUseError, lockJournal } from '../../bulk/journal-lock.js';
import { besideLockPath } from '../../bulk/journal-lock-places.js';
import { listJournals, type JournalSummary } from './list.js';

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
  /** Unfinished journals kept (without --force), and those a run is using. */
  kept: { journal: JournalSummary; why: string }[];
}

/** What an unfinished journal alone knows: the records a resume would complete exactly once. */
export function unfinishedText(journal: JournalSummary): string {
  if (journal.problem !== undefined) return `unreadable: ${journal.problem}`;
  const parts = [
    journal.unknown > 0 ? `${journal.unknown} of unknown outcome` : '',
    journal.unsent > 0 ? `${journal.unsent} never sent` : '',
  ].filter(Boolean);
  return `${parts.join(' and ')} of ${journal.records} records`;
}

/**
 * Removes the journals in `folder` a later run no longer needs: finished ones (every record
 * created or refused), no run using them, older than asked. An unfinished one goes only with
 * `force`, and the outcome names what it alone could have completed.
 */
export async function pruneJournals(
  deps: { folder: string; locksFolder: string; now: number },
  request: PruneRequest,
): Promise<PruneOutcome> {
  const outcome: PruneOutcome = { removed: [], kept: [] };
  for (const journal of await listJournals(deps.folder)) {
    const age = deps.now - Date.parse(journal.updated);
    if (request.olderThanMs !== undefined && age < request.olderThanMs) continue;
    if (!journal.finished && !request.force) {
      outcome.kept.push({ journal, why: unfinishedText(journal) });
      continue;
    }
    const lost = journal.finished ? undefined : unfinishedText(journal);
    if (request.dryRun) {
      outcome.removed.push({ journal, lost });
      continue;
    }
    // Held while it goes: a run resuming it now keeps it.
    const unlock = await lockJournal(journal.path, deps.locksFolder).catch((error: unknown) => {
      if (error instanceof JournalInUseError) return undefined;
      throw error;
    });
    if (unlock === undefined) {
      outcome.kept.push({ journal, why: 'in use by a run' });
      continue;
    }
    try {
      const lock = besideLockPath(journal.path);
      for (const file of [journal.path, lock, `${lock}.owner`]) await rm(file, { force: true });
    } finally {
      await unlock();
    }
    outcome.removed.push({ journal, lost });
  }
  return outcome;
}
