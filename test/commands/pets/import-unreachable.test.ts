import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../../src/main.js';
import { startSandboxServer, type RunningSandbox } from '../../../src/sandbox/server.js';
import { fakeIO } from '../../helpers/fake-io.js';
import { freshHome } from '../../helpers/run-cli.js';

const KEY = 'sk_unreachable_then_up';

/** The JSON stderr lines this test reads. */
interface StderrLine {
  code?: string;
  summary?: Record<string, number>;
  journal?: { batchId: string };
}
const running: RunningSandbox[] = [];
afterEach(async () => {
  for (const sandbox of running.splice(0)) await sandbox.close();
});

const serve = async (port: number) => {
  const sandbox = await startSandboxServer({
    host: '127.0.0.1',
    port,
    database: ':memory:',
    apiKeys: [KEY],
  });
  running.push(sandbox);
  return sandbox;
};

describe('pets import to a service that cannot be reached', () => {
  it('stops at once, fails no record, and the printed resume completes the run', async () => {
    // A port that was just free: nothing listens there now.
    const first = await serve(0);
    const port = Number(new URL(first.apiBaseUrl).port);
    await running.pop()!.close();
    const file = join(mkdtempSync(join(tmpdir(), 'petstore-down-')), 'pets.ndjson');
    writeFileSync(
      file,
      Array.from({ length: 40 }, (_, i) => `{"name":"P${i}","categoryId":1}\n`).join(''),
    );
    const env = {
      HOME: freshHome(),
      PETSTORE_BASE_URL: `http://127.0.0.1:${port}/v1`,
      PETSTORE_API_KEY: KEY,
    };
    const down = fakeIO();
    expect(await main(['pets', 'import', file, '--concurrency', '4'], down, env)).toBe(7);
    const lines = down
      .err()
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as StderrLine);
    // One error for the run, not one per record; every record not attempted, none failed.
    expect(lines.filter((line) => line.code === 'ECONNREFUSED')).toHaveLength(1);
    const summary = lines.find((line) => line.summary)!.summary;
    expect(summary).toMatchObject({
      records: 40,
      createdNow: 0,
      failed: 0,
      unknown: 0,
      notAttempted: 40,
    });
    const journal = lines.find((line) => line.journal)!.journal!;
    // The service is up again: the command the run printed completes it, each record once.
    const up = await serve(port);
    const resumed = fakeIO();
    const resume = ['pets', 'import', '--resume', journal.batchId];
    expect(await main(resume, resumed, env)).toBe(0);
    expect(resumed.out().trimEnd().split('\n')).toHaveLength(40);
    const listed = await fetch(`${up.apiBaseUrl}/pets?limit=100`, {
      headers: { authorization: `Bearer ${KEY}` },
    });
    expect(((await listed.json()) as unknown[]).length).toBe(40);
  });
});
