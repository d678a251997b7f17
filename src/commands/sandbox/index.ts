import type { Command } from '@commander-js/extra-typings';
import type { RunVerb } from '../../cmdutil/run-verb.js';
import { addVerbs } from '../../cmdutil/verbs.js';
import { registerSandboxReset } from './reset.js';
import { registerSandboxServe } from './serve.js';

/** `petstore sandbox`: groups its verbs, nothing more. */
export function registerSandbox(program: Command, runVerb: RunVerb, verb?: string): void {
  const sandbox = program.command('sandbox').description('The embedded local Animal Store service');
  addVerbs(sandbox, runVerb, { serve: registerSandboxServe, reset: registerSandboxReset }, verb);
}
