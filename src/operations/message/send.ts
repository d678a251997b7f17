import { command, option, phrase } from '../../core/phrase.js';
import type { PetstoreClient } from '../../api/client.js';
import type { RequestPreview } from '../../api/request.js';
import { UsageError } from '../../core/errors.js';
import { messageProblem, type MessageReceipt } from '../../core/interface.js';

/** A quickstart message to send, with the Idempotency-Key its write is sent with. */
export interface SendMessageRequest {
  message: string;
  idempotencyKey: string;
}

export interface SendMessageResult {
  receipt: MessageReceipt;
  /** The service answered from an earlier send with the same key: nothing new was queued. */
  replayed: boolean;
  /** Accepted but only queued, not yet delivered (status `queued`). */
  queued: boolean;
}

type MessageWriter = Pick<PetstoreClient, 'sendMessage' | 'previewSendMessage'>;

/**
 * The client, made when first needed: the message is checked before the service is reached,
 * so an empty one is refused as such (exit 2) whatever the key or profile.
 */
type Connect = () => Promise<MessageWriter>;

/** The message as the interface takes it, and not empty: refused before anything is sent. */
export function checkedMessage(message: string): string {
  const problem = messageProblem({ message });
  if (problem) throw new UsageError(`${problem.message}; nothing was sent`);
  if (message.trim() === '') {
    throw new UsageError('the message is empty', {
      hint: phrase`Give the text to send, e.g. ${command('message send')} "Hello" (or ${option('file', 'PATH')}, - for stdin).`,
    });
  }
  return message;
}

/** Sends a quickstart message (`POST {quickstart}/messages`) with its Idempotency-Key. */
export async function sendMessage(
  deps: { client: Connect },
  request: SendMessageRequest,
  events: { onReplayed?: () => void } = {},
): Promise<SendMessageResult> {
  const answer = { replayed: false };
  const message = checkedMessage(request.message);
  const receipt = await (
    await deps.client()
  ).sendMessage(message, {
    idempotencyKey: request.idempotencyKey,
    onReplayed: () => {
      answer.replayed = true;
      events.onReplayed?.();
    },
  });
  return { receipt, replayed: answer.replayed, queued: receipt.status === 'queued' };
}

/** What sendMessage would send, the key redacted: nothing is sent. */
export async function previewSendMessage(
  deps: { client: Connect },
  request: SendMessageRequest,
): Promise<RequestPreview> {
  const message = checkedMessage(request.message);
  return (await deps.client()).previewSendMessage(message, {
    idempotencyKey: request.idempotencyKey,
  });
}
