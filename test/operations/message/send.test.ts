import { describe, expect, it } from 'vitest';
import type { WriteOptions } from '../../../src/api/options.js';
import type { MessageReceipt } from '../../../src/core/interface.js';
import { previewSendMessage, sendMessage } from '../../../src/operations/message/send.js';

/** A service, reached through `client()`, which counts how often it was connected to. */
function messageWriter(status: string, replay = false) {
  const sent: string[] = [];
  const connections = { count: 0 };
  const service = {
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
  const client = () => {
    connections.count++;
    return Promise.resolve(service);
  };
  return { client, sent, connections };
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

  it('an empty or blank message is refused before the service is reached, dry run or not', async () => {
    for (const message of ['', ' ', '\n\t']) {
      const { client, sent, connections } = messageWriter('queued');
      await expect(sendMessage({ client }, { message, idempotencyKey: 'k' })).rejects.toThrow(
        'the message is empty',
      );
      await expect(
        previewSendMessage({ client }, { message, idempotencyKey: 'k' }),
      ).rejects.toThrow();
      expect(sent).toEqual([]);
      // No client was made: a missing key or a bad profile cannot hide the message's problem.
      expect(connections.count).toBe(0);
    }
  });
});
