import { DatabaseSync } from 'node:sqlite';
import { editJournal } from '../../helpers/journal-file.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseHttpDate } from '../../../src/core/http-date.js';
import { main } from '../../../src/main.js';
import { fakeIO } from '../../helpers/fake-io.js';
import { startIdempotentService } from '../../helpers/idempotent-service.js';
import { freshHome } from '../../helpers/run-cli.js';
import type { TestServer } from '../../helpers/test-server.js';
import { stderrText } from '../../helpers/stderr-text.js';

/**
 * Exactly once across time: records left unknown, resumed with --retry-unknown after the
 * service may have forgotten their keys (24 h), by this machine's clock or the service's.
 */

const HOUR = 3_600_000;
const servers: TestServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

/** A run that leaves records B and C unknown (their answers dropped), against a service whose clock is `clock.now`. */
async function unknownRun() {
  const clock = { now: Date.now() };
  const { server } = await startIdempotentService({
    dropNames: new Set(['B', 'C']),
    clock: () => clock.now,
  });
  servers.push(server);
  const env = {
    HOME: freshHome(),
    PETSTORE_BASE_URL: `${server.url}/v1`,
    PETSTORE_API_KEY: 'k_key_window',
  };
  const file = join(mkdtempSync(join(tmpdir(), 'petstore-window-')), 'pets.ndjson');
  writeFileSync(
    file,
    ['A', 'B', 'C', 'D'].map((name) => `{"name":"${name}","categoryId":1}\n`).join(''),
  );
  const io = fakeIO();
  expect(await main(['pets', 'import', file], io, env)).toBe(7);
  const journal = /^\{"summary".*"journal":"([^"]+)"/m.exec(io.err())?.[1];
  expect(journal, io.err()).toBeDefined();
  const posts = () => server.requests.filter((request) => request.method === 'POST').length;
  return { env, journal: journal!, clock, posts, server };
}

/** Moves every time the journal holds back: as if both clocks moved on by `ms`. */
function age(journal: string, ms: number): void {
  const back = (iso: string) => new Date(Date.parse(iso) - ms).toISOString();
  const db = new DatabaseSync(journal);
  try {
    db.exec('PRAGMA locking_mode = EXCLUSIVE');
    const runs = db.prepare('SELECT run, at FROM runs').all() as { run: number; at: string }[];
    for (const { run, at } of runs) {
      db.prepare('UPDATE runs SET at = ? WHERE run = ?').run(back(at), run);
    }
    const { started } = db.prepare('SELECT started FROM journal').get() as { started: string };
    db.prepare('UPDATE journal SET started = ?').run(back(started));
  } finally {
    db.close();
  }
}

async function resume(env: Record<string, string>, journal: string, more: string[] = []) {
  const io = fakeIO();
  const code = await main(
    ['pets', 'import', '--resume', journal, '--retry-unknown', ...more],
    io,
    env,
  );
  return { code, err: io.err(), out: io.out() };
}

describe('a resume that would send keys again', () => {
  it('refuses, sending nothing, when they were first sent past the window by this machine’s clock', async () => {
    for (const hours of [23.5, 25, 24 * 9]) {
      const { env, journal, posts } = await unknownRun();
      age(journal, hours * HOUR);
      const before = posts();
      const refused = await resume(env, journal);
      expect(refused.code, refused.err).toBe(2);
      expect(refused.err).toContain('2 records of unknown outcome (record 2, 3)');
      expect(refused.err).toContain('may be created a second time');
      expect(refused.err).toContain('--ignore-key-window');
      expect(posts()).toBe(before);
    }
  });

  it('refuses when the service’s clock says so, though this machine’s does not', async () => {
    const { env, journal, clock, posts, server } = await unknownRun();
    clock.now += 25 * HOUR;
    const before = posts();
    const refused = await resume(env, journal);
    expect(refused.code, refused.err).toBe(2);
    expect(refused.err).toContain('(record 2, 3)');
    expect(posts()).toBe(before);
    // It asked the service its time with one read, nothing more.
    expect(server.requests.at(-1)?.method).toBe('GET');
  });

  it('sends within the window, or when told to, or with a longer window', async () => {
    const within = await unknownRun();
    age(within.journal, 2 * HOUR);
    expect((await resume(within.env, within.journal)).code).toBe(0);

    const anyway = await unknownRun();
    age(anyway.journal, 25 * HOUR);
    expect((await resume(anyway.env, anyway.journal, ['--ignore-key-window'])).code).toBe(0);

    const longer = await unknownRun();
    age(longer.journal, 25 * HOUR);
    expect((await resume(longer.env, longer.journal, ['--key-window', '3d'])).code).toBe(0);

    const fromEnv = await unknownRun();
    age(fromEnv.journal, 25 * HOUR);
    expect(
      (await resume({ ...fromEnv.env, PETSTORE_KEY_WINDOW: '72h' }, fromEnv.journal)).code,
    ).toBe(0);
    // The flag wins over the environment.
    const flagWins = await unknownRun();
    age(flagWins.journal, 25 * HOUR);
    const refused = await resume(
      { ...flagWins.env, PETSTORE_KEY_WINDOW: '72h' },
      flagWins.journal,
      ['--key-window', '24h'],
    );
    expect(refused.code).toBe(2);
  });

  it('a dry run says so and sends nothing; a window no longer than its margin is refused', async () => {
    const { env, journal, posts } = await unknownRun();
    age(journal, 25 * HOUR);
    const before = posts();
    const dry = await resume(env, journal, ['--dry-run']);
    expect(dry.code).toBe(0);
    expect(stderrText(dry.err)).toContain('warning: 2 records of unknown outcome');
    expect(posts()).toBe(before);
    for (const bad of ['30m', '1h', 'soon', '0s']) {
      const wrong = await resume(env, journal, ['--key-window', bad]);
      expect(wrong.code, bad).toBe(2);
      expect(wrong.err).toContain('--key-window must be a duration longer than');
    }
  });

  it('asks the service its time when this machine’s clock may have been set back since', async () => {
    const { env, journal, clock, posts } = await unknownRun();
    // No answer of the first run gave the service's clock: only this machine's is journaled.
    editJournal(journal, 'UPDATE runs SET service_ahead_ms = NULL');
    // A day and more has passed, but this machine's clock was set back by as much.
    clock.now += 25 * HOUR;
    const before = posts();
    const refused = await resume(env, journal);
    expect(refused.code, refused.err).toBe(2);
    expect(refused.err).toContain('(record 2, 3)');
    expect(posts()).toBe(before);
  });
});

describe('an HTTP date', () => {
  it('is UTC, with its zone or without', () => {
    const utc = Date.UTC(2026, 10, 25, 10, 0, 0);
    expect(parseHttpDate('Wed, 25 Nov 2026 10:00:00 GMT')).toBe(utc);
    expect(parseHttpDate('Wed, 25 Nov 2026 10:00:00')).toBe(utc);
    expect(parseHttpDate('Wednesday, 25-Nov-26 10:00:00 GMT')).toBe(utc);
    expect(parseHttpDate('not a date')).toBeNaN();
  });
});
