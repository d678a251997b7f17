import { describe, expect, it } from 'vitest';
import { runF } from '../helpers/run-f.js';

/** What a command line turns into: the verb and the typed options it would run with. */
const parse = (argv: string[]) => runF(argv);

describe('flags become typed options', () => {
  it('gives sandbox serve its defaults from the contract', async () => {
    const { received } = await parse(['sandbox', 'serve', '--memory']);
    expect(received[0]!.options).toMatchObject({
      host: '127.0.0.1',
      port: 4010,
      memory: true,
      apiKeys: ['sandbox-key'],
    });
  });

  it.each([
    [['pets', 'list', '--limit', '101'], '--limit must be a whole number from 1 to 100'],
    [['pets', 'list', '--status', 'lost'], '--status must be one of available, pending, sold'],
    [
      ['pets', 'import', 'x', '--concurrency', '17'],
      '--concurrency must be a whole number from 1 to 16',
    ],
    [['pets', 'get', '1.5'], 'PET_ID must be a whole number (int64)'],
    [['message', 'send', 'hi', '--file', 'x'], 'give the message as TEXT or with --file, not both'],
    [['sandbox', 'serve', '--port', '70000'], '--port must be a whole number from 0 to 65535'],
    [['--timeout', '0', 'pets', 'list'], '--timeout must be a number from 0.001 to 3600'],
    [['--retries', '-1', 'pets', 'list'], '--retries must be a whole number from 0 to 10'],
  ])('%j is refused before the verb runs', async (argv, message) => {
    const result = await parse(argv);
    expect(result.code).toBe(2);
    expect(result.received).toEqual([]);
    expect(result.err).toContain(message);
  });
});
