import type { Command } from '@commander-js/extra-typings';
import type { RunVerb } from '../../cmdutil/run-verb.js';
import { addVerbs, runsAlone } from '../../cmdutil/verbs.js';
import { registerHistoryList } from './list.js';
import { registerHistoryPrune } from './prune.js';
import { registerHistoryShow } from './show.js';

/** `petstore history`: lists the recorded writes itself; `show` and `prune` are its verbs. */
export function registerHistory(program: Command, runVerb: RunVerb, verb?: string): void {
  const history = program
    .command('history')
    .description('List the writes petstore sent or refused, from every front end');
  // Named alone, the group lists: it is not a group whose help is the answer.
  runsAlone(history);
  registerHistoryList(history, runVerb);
  addVerbs(history, runVerb, { show: registerHistoryShow, prune: registerHistoryPrune }, verb);
}
