import type { Command } from 'commander';
import { UNKNOWN_MESSAGE_OUTCOME } from '../../core/unknown-outcome.js';
import { endInterrupted, finishWrite } from '../../cmdutil/finish-write.js';
import { readInputFile } from '../../cmdutil/read-input.js';
import type { RunVerb } from '../../cmdutil/run-verb.js';
import type { Context } from '../../context/context.js';
import { UsageError } from '../../core/errors.js';
import type { MessageReceipt } from '../../core/types.js';
import type { Column } from '../../output/render.js';

const RECEIPT_COLUMNS: Column<MessageReceipt>[] = [
  { header: 'id', value: (receipt) => receipt.id },
  {
    header: 'status',
    value: (receipt) => receipt.status,
    tone: (receipt) => (receipt.status === 'queued' ? 'warn' : undefined),
  },
  { header: 'createdAt', value: (receipt) => receipt.createdAt },
];

/** The message itself, or the file (or - for stdin) to read it from. */
export type MessageSendOptions = { text: string } | { file: string };

export function toMessageSendOptions(
  text: string | undefined,
  file: string | undefined,
): MessageSendOptions {
  if (text !== undefined && file === undefined) return { text };
  if (text === undefined && file !== undefined) return { file };
  throw new UsageError('give the message as TEXT or with --file, not both or neither', {
    hint: 'Example: petstore message send "Hello"',
  });
}

export async function runMessageSend(ctx: Context, options: MessageSendOptions): Promise<void> {
  const message =
    'text' in options
      ? options.text
      : (await readInputFile(options.file, ctx.io)).replace(/\r?\n$/, '');
  if (message.trim() === '') throw new UsageError('the message is empty');
  const client = await ctx.client();
  const { result: receipt, interrupted } = await finishWrite(
    ctx,
    () => client.sendMessage(message),
    UNKNOWN_MESSAGE_OUTCOME,
  );
  await ctx.render(receipt, RECEIPT_COLUMNS);
  if (interrupted) endInterrupted(interrupted, `message ${receipt.id} was sent`);
  if (receipt.status === 'queued') {
    ctx.notice(`Message ${receipt.id} is queued: accepted by the service, not yet delivered.`);
  }
  if (ctx.io.stderrIsTTY) {
    const target = await ctx.target();
    ctx.notice(`Sent to ${target.label}.`);
  }
}

export function registerMessageSend(message: Command, runVerb: RunVerb): void {
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
    .action((text: string | undefined, flags: { file?: string }, command: Command) =>
      runVerb(command, () => toMessageSendOptions(text, flags.file), runMessageSend),
    );
}
