import type { Command } from '@commander-js/extra-typings';
import type { RunVerb } from '../../cmdutil/run-verb.js';
import { addVerbs } from '../../cmdutil/verbs.js';
import { registerProfileList } from './list.js';
import { registerProfileRemove } from './remove.js';
import { registerProfileSet } from './set.js';
import { registerProfileShow } from './show.js';
import { registerProfileUse } from './use.js';

/** `petstore profile`: groups its verbs, nothing more. */
export function registerProfile(program: Command, runVerb: RunVerb, verb?: string): void {
  const profile = program
    .command('profile')
    .description('Manage profiles: production, staging, sandbox and your own');
  addVerbs(
    profile,
    runVerb,
    {
      list: registerProfileList,
      show: registerProfileShow,
      use: registerProfileUse,
      set: registerProfileSet,
      remove: registerProfileRemove,
    },
    verb,
  );
}
