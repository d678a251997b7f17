import { describe, expect, it } from 'vitest';
import { main } from '../../src/main.js';
import { fakeIO } from '../helpers/fake-io.js';
import { freshHome } from '../helpers/run-cli.js';

const env = { HOME: freshHome() };

/** What a command line turns into: the verb and the typed options it would run with. */
async function parse(argv: string[]) {
  const received: { verb: string; options: unknown }[] = [];
  const io = fakeIO();
  const code = await main(argv, io, env, {
    runF: (verb, options) => {
      received.push({ verb, options });
    },
  });
  return { code, received, err: io.err() };
}

/** What a bulk `pets add` turns into when only some flags are given. */
const NEW_BULK_RUN = {
  resume: undefined,
  journal: undefined,
  concurrency: 4,
  failFast: false,
  dryRun: false,
  retryFailed: false,
  retryUnknown: false,
  printAll: false,
  skipInvalid: false,
  rejects: undefined,
  batchId: undefined,
  keyWindow: { windowMs: 24 * 3_600_000, marginMs: 3_600_000, ignore: false },
};

describe('flags become typed options', () => {
  it.each([
    [['pets', 'list'], 'pets list', {}],
    [
      ['pets', 'list', '--status', 'sold', '--limit', ' 7 '],
      'pets list',
      { status: 'sold', limit: 7 },
    ],
    [
      ['pets', 'list', '--max-items', '250', '--fields', 'name, id'],
      'pets list',
      { maxItems: 250, fields: ['name', 'id'] },
    ],
    [
      ['pets', 'add', '--name', 'Rex', '--category-id', '9223372036854775807'],
      'pets add',
      {
        pet: { name: 'Rex', categoryId: 9223372036854775807n },
        idempotencyKey: undefined,
        dryRun: false,
      },
    ],
    [
      ['pets', 'add', '--name', 'A', '--category-id', '1', '--idempotency-key', 'k-1', '--dry-run'],
      'pets add',
      { pet: { name: 'A', categoryId: 1 }, idempotencyKey: 'k-1', dryRun: true },
    ],
    [
      ['pets', 'import', '-', '--concurrency', '8', '--fail-fast'],
      'pets import',
      { ...NEW_BULK_RUN, file: '-', concurrency: 8, failFast: true },
    ],
    [
      ['pets', 'import', '--resume', 'j', '--retry-unknown', '--retry-failed'],
      'pets import',
      { ...NEW_BULK_RUN, file: undefined, resume: 'j', retryFailed: true, retryUnknown: true },
    ],
    [
      ['pets', 'import', 'p.ndjson', '--journal', 'p.journal'],
      'pets import',
      { ...NEW_BULK_RUN, file: 'p.ndjson', journal: 'p.journal' },
    ],
    [['pets', 'get', '9007199254740993'], 'pets get', { id: 9007199254740993n }],
    [
      ['message', 'send', 'hi', '--idempotency-key', 'm-1'],
      'message send',
      { text: 'hi', idempotencyKey: 'm-1', dryRun: false },
    ],
    [
      ['message', 'send', '--file', '-', '--dry-run'],
      'message send',
      { file: '-', idempotencyKey: undefined, dryRun: true },
    ],
    [['profile', 'show'], 'profile show', { name: undefined }],
    [['profile', 'remove', 'qa', '-y'], 'profile remove', { name: 'qa', yes: true, dryRun: false }],
    [
      ['--base-url', 'https://x.test/v1', 'profile', 'set', 'qa'],
      'profile set',
      { name: 'qa', baseUrl: 'https://x.test/v1', quickstartUrl: undefined, dryRun: false },
    ],
    [
      ['auth', 'login', '--no-verify'],
      'auth login',
      { verify: false, dryRun: false, insecureStorage: false, migrate: false },
    ],
    [
      ['auth', 'login', '--insecure-storage'],
      'auth login',
      { verify: true, dryRun: false, insecureStorage: true, migrate: false },
    ],
    [['smoke', '--allow-writes'], 'smoke', { allowWrites: true, junitFile: undefined }],
    [['sandbox', 'reset', '--db', 'x.db'], 'sandbox reset', { database: 'x.db', yes: false }],
  ])('%j runs %s with %o', async (argv, verb, options) => {
    const result = await parse(argv);
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
    expect(result.received).toEqual([{ verb, options }]);
  });

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
