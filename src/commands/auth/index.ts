import type { Command } from '@commander-js/extra-typings';
import type { RunVerb } from '../../cmdutil/run-verb.js';
import { addVerbs } from '../../cmdutil/verbs.js';
import { registerAuthLogin } from './login.js';
import { registerAuthLogout } from './logout.js';
import { registerAuthStatus } from './status.js';

/** `petstore auth`, for the profile chosen by --profile, PETSTORE_PROFILE or `profile use`. */
export function registerAuth(program: Command, runVerb: RunVerb, verb?: string): void {
  const auth = program.command('auth').description('Store, inspect and remove API keys');
  addVerbs(
    auth,
    runVerb,
    { login: registerAuthLogin, status: registerAuthStatus, logout: registerAuthLogout },
    verb,
  );
}
