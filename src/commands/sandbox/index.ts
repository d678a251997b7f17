import type { Command } from '@commander-js/extra-typings';
import type { RunVerb } from '../../cmdutil/run-verb.js';
import { registerSandboxReset } from './reset.js';
import { registerSandboxServe } from './serve.js';

/** `petstore sandbox`: groups its verbs, nothing more. */
export function registerSandbox(program: Command, runVerb: RunVerb): void {
  const sandbox = program.command('sandbox').description('The embedded local Animal Store service');
  registerSandboxServe(sandbox, runVerb);
  registerSandboxReset(sandbox, runVerb);
}
