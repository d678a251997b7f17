import type { Command } from 'commander';
import { UsageError } from '../errors.js';
import type { RunVerb } from './program.js';
import { readInputFile } from './read-input.js';

interface RawFlags {
  file?: string;
}

export function registerMessage(program: Command, runVerb: RunVerb): void {
  const message = program.command('message').description('Quickstart messages');
  message
    .command('send')
    .description('Send a quickstart message (POST {quickstart}/messages)')
    .argument('[TEXT]', 'the message text')
    .option('--file <path>', 'read the message from a file, or - for standard input')
    .addHelpText(
      'after',
      `
Examples:
  $ petstore message send "Hello from the store"
  $ git log -1 --format=%s | petstore message send --file -`,
    )
    .action((text: string | undefined, flags: RawFlags, command: Command) =>
      runVerb(command, async (ctx) => {
        if ((text === undefined) === (flags.file === undefined)) {
          throw new UsageError('give the message as TEXT or with --file, not both or neither', {
            hint: 'Example: petstore message send "Hello"',
          });
        }
        const body = text ?? (await readInputFile(flags.file!, ctx.io)).replace(/\r?\n$/, '');
        if (body.trim() === '') throw new UsageError('the message is empty');
        const { runMessageSend } = await import('../commands/message-send.js');
        await runMessageSend(ctx, body);
      }),
    );
}
