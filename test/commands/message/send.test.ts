import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import nock from 'nock';
import { describe, expect, it } from 'vitest';
import { main } from '../../../src/main.js';
import { fakeIO } from '../../helpers/fake-io.js';
import { useNockGuard } from '../../helpers/nock-guard.js';
import { optionsOf, runF } from '../../helpers/run-f.js';
import { QUICKSTART, JSON_HEADERS, serviceEnv } from '../../helpers/service-env.js';

const env = serviceEnv('sk_live_COMMANDS_5555');

useNockGuard();

describe('message send', () => {
  const receipt = { id: 'm1', message: 'hi', status: 'queued', createdAt: '2026-11-22T10:00:00Z' };

  it('sends TEXT and says plainly that a queued message is not delivered', async () => {
    nock(QUICKSTART).post('/messages', { message: 'hi' }).reply(200, receipt, JSON_HEADERS);
    const io = fakeIO();
    expect(await main(['message', 'send', 'hi'], io, env)).toBe(0);
    expect(JSON.parse(io.out())).toEqual(receipt);
    expect(io.err()).toContain('Message m1 is queued: accepted by the service, not yet delivered.');
  });

  it('shows id, status and createdAt in a table', async () => {
    nock(QUICKSTART).post('/messages').reply(201, receipt, JSON_HEADERS);
    const io = fakeIO({ tty: true });
    expect(await main(['message', 'send', 'hi', '--no-color'], io, env)).toBe(0);
    expect(io.out()).toMatch(/^ID\s+STATUS\s+CREATED AT\n/);
    expect(io.out()).toContain('2026-11-22T10:00:00Z');
  });

  it('reads the message from --file and from stdin', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'petstore-msg-'));
    writeFileSync(join(dir, 'm.txt'), 'from a file\n');
    nock(QUICKSTART)
      .post('/messages', { message: 'from a file' })
      .reply(200, receipt, JSON_HEADERS);
    nock(QUICKSTART).post('/messages', { message: 'from stdin' }).reply(200, receipt, JSON_HEADERS);
    expect(await main(['message', 'send', '--file', join(dir, 'm.txt')], fakeIO(), env)).toBe(0);
    const io = fakeIO({ stdin: 'from stdin\n' });
    expect(await main(['message', 'send', '--file', '-'], io, env)).toBe(0);
  });

  it.each([
    [[], /message send needs the message: TEXT or --file/],
    [['a', '--file', 'x'], /TEXT or with --file/],
    [['   '], /the message is empty/],
    [['--file', '/nonexistent/m.txt'], /cannot read \/nonexistent\/m.txt: ENOENT/],
  ])('rejects %j with exit 2', async (args, message) => {
    const io = fakeIO();
    expect(await main(['message', 'send', ...args], io, env)).toBe(2);
    expect(io.err()).toMatch(message);
  });

  it('exits 5 on 400 and 3 on 401', async () => {
    nock(QUICKSTART)
      .post('/messages')
      .reply(400, { code: 'bad_request', message: 'missing message', status: 400 }, JSON_HEADERS);
    nock(QUICKSTART)
      .post('/messages')
      .reply(401, { code: 'unauthorized', message: 'bad key', status: 401 }, JSON_HEADERS);
    expect(await main(['message', 'send', 'x'], fakeIO(), env)).toBe(5);
    expect(await main(['message', 'send', 'x'], fakeIO(), env)).toBe(3);
  });
});

describe('message send: flags to options (runF)', () => {
  it.each([
    [['message', 'send', 'hi'], { text: 'hi', dryRun: false }],
    [
      ['message', 'send', 'hi', '--idempotency-key', 'm-1'],
      { text: 'hi', idempotencyKey: 'm-1', dryRun: false },
    ],
    [['message', 'send', '--file', '-', '--dry-run'], { file: '-', dryRun: true }],
    [['message', 'send', '--', '--not-a-flag'], { text: '--not-a-flag', dryRun: false }],
  ])('%j', async (argv, options) => {
    expect(await optionsOf(argv)).toEqual(options);
  });

  it.each([
    [['message', 'send', 'hi', '--file', 'x'], 'give the message as TEXT or with --file, not both'],
    [['message', 'send', 'hi', '--idempotency-key', 'a b'], '--idempotency-key must be'],
  ])('%j is refused before the verb runs', async (argv, message) => {
    const result = await runF(argv);
    expect(result.code).toBe(2);
    expect(result.received).toEqual([]);
    expect(result.err).toContain(message);
  });
});
