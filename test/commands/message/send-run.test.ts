import { describe, expect, it } from 'vitest';
import { runMessageSend } from '../../../src/commands/message/send.js';
import { FakeTransport, json } from '../../helpers/fake-transport.js';
import { verbContext } from '../../helpers/verb-context.js';

const receipt = {
  id: 'msg_1',
  message: 'Hello',
  status: 'queued',
  createdAt: '2026-11-25T10:00:00Z',
};

describe('runMessageSend', () => {
  it('sends the text, prints the receipt and says it is only queued', async () => {
    const transport = new FakeTransport().on('POST', '/quickstart/messages', (request) => {
      expect(JSON.parse(request.body ?? '')).toEqual({ message: 'Hello' });
      return json(200, receipt)();
    });
    const { ctx, io } = verbContext({
      transport,
      raw: { output: 'json' },
      env: { PETSTORE_QUICKSTART_URL: 'https://petstore.test/quickstart' },
    });
    await runMessageSend(ctx, { text: 'Hello', idempotencyKey: undefined, dryRun: false });
    expect(JSON.parse(io.out())).toEqual(receipt);
    expect(io.err()).toContain('Message msg_1 is queued');
  });

  it('reads the message from standard input (--file -), without its last line break', async () => {
    const transport = new FakeTransport().on('POST', '/quickstart/messages', (request) => {
      expect(JSON.parse(request.body ?? '')).toEqual({ message: 'from stdin' });
      return json(200, { ...receipt, message: 'from stdin', status: 'sent' })();
    });
    const { ctx, io } = verbContext({
      transport,
      raw: { output: 'json' },
      stdin: 'from stdin\n',
      env: { PETSTORE_QUICKSTART_URL: 'https://petstore.test/quickstart' },
    });
    await runMessageSend(ctx, { file: '-', idempotencyKey: undefined, dryRun: false });
    expect(io.err()).not.toContain('queued');
  });

  it('a blank message is refused and nothing is sent', async () => {
    const transport = new FakeTransport();
    const { ctx } = verbContext({
      transport,
      env: { PETSTORE_QUICKSTART_URL: 'https://petstore.test/quickstart' },
    });
    await expect(
      runMessageSend(ctx, { text: '   ', idempotencyKey: undefined, dryRun: false }),
    ).rejects.toThrow('the message is empty');
    expect(transport.requests).toEqual([]);
  });
});
