import type { Command } from '@commander-js/extra-typings';
import type { RunVerb } from '../../cmdutil/run-verb.js';
import { registerProfileList } from './list.js';
import { registerProfileRemove } from './remove.js';
import { registerProfileSet } from './set.js';
import { registerProfileShow } from './show.js';
import { registerProfileUse } from './use.js';

/** `petstore profile`: groups its verbs, nothing more. */
export function registerProfile(program: Command, runVerb: RunVerb): void {
  const profile = program
    .command('profile')
    .description('Manage profiles: production, staging, sandbox and your own');
  registerProfileList(profile, runVerb);
  registerProfileShow(profile, runVerb);
  registerProfileUse(profile, runVerb);
  registerProfileSet(profile, runVerb);
  registerProfileRemove(profile, runVerb);
}
