import type { Command } from '@commander-js/extra-typings';
import type { RunVerb } from '../../cmdutil/run-verb.js';
import { registerMessageSend } from './send.js';

/** `petstore message`: groups its verbs, nothing more. */
export function registerMessage(program: Command, runVerb: RunVerb): void {
  const message = program.command('message').description('Quickstart messages');
  registerMessageSend(message, runVerb);
}
