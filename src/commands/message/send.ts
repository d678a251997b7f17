import { DRY_RUN, dryRunOption, idempotencyKeyOption } from '../../cmdutil/options.js';
import { helpProse } from '../../cmdutil/help-text.js';
import type { Command } from '@commander-js/extra-typings';
import { replayedNotice, UNKNOWN_MESSAGE_OUTCOME } from '../../core/unknown-outcome.js';
import { endInterrupted, finishWrite } from '../../cmdutil/finish-write.js';

import { readInputFile } from '../../cmdutil/read-input.js';
import type { FlagsOf, RunVerb } from '../../cmdutil/run-verb.js';
import type { RunOutput, RunServices, RunState } from '../../context/context.js';
import { UsageError } from '../../core/errors.js';
import type { MessageReceipt } from '../../core/interface.js';
import type { Column } from '../../output/render.js';
import { previewSendMessage, sendMessage } from '../../operations/message/send.js';
import { writeKey } from '../../operations/write-key.js';

const RECEIPT_COLUMNS: Column<MessageReceipt>[] = [
  { header: 'id', value: (receipt) => receipt.id },
  {
    header: 'status',
    value: (receipt) => receipt.status,
    tone: (receipt) => (receipt.status === 'queued' ? 'warn' : undefined),
  },
  { header: 'createdAt', value: (receipt) => receipt.createdAt },
];

/** The message itself, the file (or - for stdin) to read it from, or neither: to be asked. */
export type MessageSource = { text: string } | { file: string } | { ask: true };

export type MessageSendOptions = MessageSource & {
  idempotencyKey: string | undefined;
  /** Print the request instead of sending it. */
  dryRun: boolean;
};

/** `message send`'s argument and flags, declared once. */
function declareMessageSend(message: Command) {
  return message
    .command('send')
    .description('Send a quickstart message (POST {quickstart}/messages)')
    .argument('[TEXT]', 'the message text')
    .option('--file <path>', 'read the message from a file, or - for standard input')
    .addOption(idempotencyKeyOption())
    .addOption(dryRunOption(DRY_RUN.request))
    .addHelpText(
      'after',
      helpProse(`
Examples:
  $ petstore message send "Hello from the store"
  $ git log -1 --format=%s | petstore message send --file -
  $ petstore message send "Hello" --dry-run`),
    );
}

export function toMessageSendOptions(
  text: string | undefined,
  flags: FlagsOf<ReturnType<typeof declareMessageSend>>,
): MessageSendOptions {
  const rest = { idempotencyKey: flags.idempotencyKey, dryRun: flags.dryRun === true };
  if (text !== undefined && flags.file === undefined) return { text, ...rest };
  if (text === undefined && flags.file !== undefined) return { file: flags.file, ...rest };
  if (text === undefined) return { ask: true, ...rest };
  throw new UsageError('give the message as TEXT or with --file, not both', {
    hint: 'Example: petstore message send "Hello"',
  });
}

/** The message: given, read from its file, or asked for at a terminal (else refused). */
async function messageOf(ctx: RunOutput, source: MessageSource): Promise<string> {
  if ('text' in source) return source.text;
  if ('file' in source) {
    const use = { flag: '--file', piped: 'echo hello | petstore message send --file -' };
    return (await readInputFile(source.file, ctx.io, use)).replace(/\r?\n$/, '');
  }
  if (!ctx.settings.prompts) {
    throw new UsageError('message send needs the message: TEXT or --file', {
      hint: 'Example: petstore message send "Hello" (at a terminal, petstore asks for it)',
    });
  }
  const { askText } = await import('../../output/ask.js');
  return askText(ctx.io, {
    message: 'Message',
    check: (answer) => (answer.trim() === '' ? 'the message is empty' : undefined),
  });
}

export async function runMessageSend(
  ctx: RunOutput & RunServices & RunState,
  options: MessageSendOptions,
): Promise<void> {
  const message = await messageOf(ctx, options);
  const client = () => ctx.client();
  const request = { message, idempotencyKey: writeKey(options.idempotencyKey) };
  if (options.dryRun) {
    ctx.printRequest(await previewSendMessage({ client }, request));
    return;
  }
  const { result, interrupted } = await finishWrite(
    ctx,
    () =>
      sendMessage({ client }, request, {
        onReplayed: () => ctx.notice(replayedNotice('message')),
      }),
    UNKNOWN_MESSAGE_OUTCOME,
    request.idempotencyKey,
  );
  const { receipt } = result;
  await ctx.render(receipt, RECEIPT_COLUMNS);
  if (interrupted) endInterrupted(interrupted, `message ${receipt.id} was sent`);
  if (result.queued) {
    ctx.notice(`Message ${receipt.id} is queued: accepted by the service, not yet delivered.`);
  }
  if (ctx.io.stderrIsTTY) {
    const target = await ctx.target();
    ctx.notice(`Sent to ${target.label}.`);
  }
}

export function registerMessageSend(message: Command, runVerb: RunVerb): void {
  const send = declareMessageSend(message);
  send.action((text, flags) =>
    runVerb(send, () => toMessageSendOptions(text, flags), runMessageSend),
  );
}
