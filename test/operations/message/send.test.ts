import { describe, expect, it } from 'vitest';
import type { WriteOptions } from '../../../src/api/options.js';
import type { MessageReceipt } from '../../../src/core/interface.js';
import { previewSendMessage, sendMessage } from '../../../src/operations/message/send.js';

function messageWriter(status: string, replay = false) {
  const sent: string[] = [];
  const client = {
    sendMessage(message: string, write: WriteOptions = {}): Promise<MessageReceipt> {
      sent.push(message);
      if (replay) write.onReplayed?.({ afterUnansweredSend: false });
      return Promise.resolve({ id: 'msg_1', message, status, createdAt: '2026-11-25T10:00:00Z' });
    },
    previewSendMessage(message: string, write: WriteOptions = {}) {
      return {
        method: 'POST',
        url: 'https://petstore.test/quickstart/messages',
        headers: { 'idempotency-key': write.idempotencyKey ?? '' },
        body: { message },
      };
    },
  };
  return { client, sent };
}

describe('sendMessage', () => {
  it('sends the message and says whether it was only queued', async () => {
    const queued = messageWriter('queued');
    const first = await sendMessage(
      { client: queued.client },
      { message: 'Hello', idempotencyKey: 'k' },
    );
    expect(first).toMatchObject({ queued: true, replayed: false, receipt: { id: 'msg_1' } });
    const delivered = messageWriter('sent');
    const second = await sendMessage(
      { client: delivered.client },
      { message: 'Hi', idempotencyKey: 'k' },
    );
    expect(second.queued).toBe(false);
  });

  it('a replayed answer is marked', async () => {
    const { client } = messageWriter('queued', true);
    const result = await sendMessage({ client }, { message: 'Hello', idempotencyKey: 'k' });
    expect(result.replayed).toBe(true);
  });

  it('an empty or blank message is refused before anything is sent, dry run or not', async () => {
    for (const message of ['', ' ', '\n\t']) {
      const { client, sent } = messageWriter('queued');
      await expect(sendMessage({ client }, { message, idempotencyKey: 'k' })).rejects.toThrow(
        'the message is empty',
      );
      expect(() => previewSendMessage({ client }, { message, idempotencyKey: 'k' })).toThrow();
      expect(sent).toEqual([]);
    }
  });
});
