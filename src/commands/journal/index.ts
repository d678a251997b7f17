import type { Command } from '@commander-js/extra-typings';
import type { RunVerb } from '../../cmdutil/run-verb.js';
import { addVerbs } from '../../cmdutil/verbs.js';
import { registerJournalList } from './list.js';
import { registerJournalPrune } from './prune.js';
import { registerJournalShow } from './show.js';

/** `petstore journal`: groups its verbs, nothing more. */
export function registerJournal(program: Command, runVerb: RunVerb, verb?: string): void {
  const journal = program
    .command('journal')
    .description('List, show and prune the journals bulk runs keep (pets import)');
  addVerbs(
    journal,
    runVerb,
    { list: registerJournalList, show: registerJournalShow, prune: registerJournalPrune },
    verb,
  );
}
