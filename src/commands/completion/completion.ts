import type { Command } from '@commander-js/extra-typings';
import { helpProse } from '../../cmdutil/help-text.js';
import type { RunVerb } from '../../cmdutil/run-verb.js';
import type { RunOutput } from '../../context/context.js';
import { SHELLS, type Shell } from '../../core/contract.js';
import { UsageError } from '../../core/errors.js';
import { completionScript } from './scripts.js';

export interface CompletionOptions {
  shell: Shell;
  /** The whole program, whose commands and options the script completes. */
  program: Command;
}

export function toCompletionOptions(shell: string, program: Command): CompletionOptions {
  if (!(SHELLS as readonly string[]).includes(shell)) {
    throw new UsageError(`unknown shell "${shell}"; choose one of ${SHELLS.join(', ')}`);
  }
  return { shell: shell as Shell, program };
}

export function runCompletion(ctx: RunOutput, options: CompletionOptions): Promise<void> {
  ctx.io.stdout.write(completionScript(options.program, options.shell));
  return Promise.resolve();
}

export function registerCompletion(program: Command, runVerb: RunVerb): void {
  program
    .command('completion')
    .description('Print a shell completion script: bash, zsh or fish')
    .argument('<SHELL>', SHELLS.join(', '))
    .addHelpText(
      'after',
      helpProse(`
Examples:
  $ petstore completion bash > ~/.local/share/bash-completion/completions/petstore
  $ petstore completion zsh > "\${fpath[1]}/_petstore"
  $ petstore completion fish > ~/.config/fish/completions/petstore.fish`),
    )
    .action((shell, _flags, command) =>
      runVerb(command, () => toCompletionOptions(shell, program), runCompletion),
    );
}
