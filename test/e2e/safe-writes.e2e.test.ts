import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, freshHome, runCli } from '../helpers/run-cli.js';
import { serveSandbox, type ServedSandbox } from '../helpers/serve-sandbox.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const KEY = 'sandbox-key';
const sandboxes: ServedSandbox[] = [];
const servers: TestServer[] = [];
afterEach(async () => {
  for (const sandbox of sandboxes.splice(0)) await sandbox.stop();
  for (const server of servers.splice(0)) await server.close();
});

async function serve(args: string[]): Promise<ServedSandbox> {
  const sandbox = await serveSandbox(['--api-key', KEY, ...args]);
  sandboxes.push(sandbox);
  return sandbox;
}

function folder(): string {
  return mkdtempSync(join(tmpdir(), 'petstore-safe-'));
}

/** Names and count of the pets in a sandbox database file (read after the sandbox stopped). */
function petsIn(database: string): { count: number; names: string[] } {
  const db = new DatabaseSync(database, { readOnly: true });
  try {
    const names = (db.prepare('SELECT name FROM pets').all() as { name: string }[]).map(
      (row) => row.name,
    );
    return { count: names.length, names };
  } finally {
    db.close();
  }
}

/**
 * Starts `petstore ARGS` and kills it with SIGKILL at a random moment within 20 ms after its
 * stdout holds `lines` lines (not at once: that would always hit the moment just after a
 * write); resolves with the stdout it wrote before dying.
 */
function killAfterLines(args: string[], env: Record<string, string>, lines: number) {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let killing: NodeJS.Timeout | undefined;
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    if (stdout.split('\n').length > lines && !killing) {
      killing = setTimeout(() => child.kill('SIGKILL'), Math.random() * 20);
    }
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  return new Promise<{ signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (_code, signal) => {
      clearTimeout(timer);
      resolve({ signal, stdout, stderr });
    }),
  );
}

const lines = (text: string) => text.split('\n').filter(Boolean);

describe('safe writes against the sandbox with faults on (real HTTP)', () => {
  it('a bulk run killed mid-run, resumed twice: one pet per record, one stdout line per record', async () => {
    const RECORDS = 3000;
    const work = folder();
    const input = join(work, 'pets.ndjson');
    const journal = join(work, 'run.journal');
    const database = join(work, 'sandbox.db');
    writeFileSync(
      input,
      Array.from({ length: RECORDS }, (_, i) => `{"name":"pet-${i + 1}","categoryId":1}\n`).join(
        '',
      ),
    );
    const sandbox = await serve(['--db', database, '--drop-after-send', '0.1', '--seed', '5']);
    const env = { HOME: freshHome(), PETSTORE_BASE_URL: sandbox.apiBaseUrl, PETSTORE_API_KEY: KEY };

    const first = await killAfterLines(
      ['pets', 'import', input, '--journal', journal, '--concurrency', '8'],
      env,
      RECORDS / 4,
    );
    expect(first.signal).toBe('SIGKILL');
    expect(lines(first.stdout).length).toBeLessThan(RECORDS);
    // Records dropped after they were sent are left unknown, not guessed at.
    expect(first.stderr).toContain('the outcome is unknown');

    // Without --retry-unknown, the unknown ones are reported and not sent again: exit 7.
    const second = await runCli(['pets', 'import', '--resume', journal], { env });
    expect(second.code, second.stderr).toBe(7);
    expect(second.stderr).toContain(
      `Complete the run with: petstore --base-url ${env.PETSTORE_BASE_URL} pets import --resume ${journal} --retry-unknown`,
    );

    const third = await runCli(['pets', 'import', '--resume', journal, '--retry-unknown'], { env });
    expect(third.code, third.stderr).toBe(0);

    const printed = [first.stdout, second.stdout, third.stdout].flatMap(lines);
    const printedNames = printed.map((line) => (JSON.parse(line) as { name: string }).name);
    expect(new Set(printedNames).size).toBe(RECORDS);
    // One line per record. The one exception: a kill in the microseconds between writing
    // pets' lines (those created in one turn of the event loop, at most --concurrency of them)
    // and journaling that they were written prints those pets again (same lines), on resume;
    // none is ever lost.
    const repeated = printed.filter((line, i) => printed.indexOf(line) !== i);
    expect(printed.length - RECORDS).toBe(repeated.length);
    expect(repeated.length).toBeLessThanOrEqual(8);

    expect(await sandbox.stop()).toBe(143);
    sandboxes.splice(sandboxes.indexOf(sandbox), 1);
    const stored = petsIn(database);
    expect(stored.count).toBe(RECORDS);
    expect(new Set(stored.names)).toEqual(new Set(printedNames));
  }, 90_000);

  it('an unknown single add, sent again with its key, creates nothing new', async () => {
    const sandbox = await serve(['--memory', '--drop-after-send', '1']);
    const env = { HOME: freshHome(), PETSTORE_BASE_URL: sandbox.apiBaseUrl, PETSTORE_API_KEY: KEY };
    const add = ['pets', 'add', '--name', 'Rex', '--category-id', '1'];
    const lost = await runCli(add, { env });
    expect(lost.code).toBe(7);
    const key = /--idempotency-key (\S+):/.exec(lost.stderr)?.[1];
    expect(key, lost.stderr).toMatch(/^[0-9a-f-]{36}$/);

    const again = await runCli([...add, '--idempotency-key', key!], { env });
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual({ id: 1, name: 'Rex', categoryId: 1 });
    expect(again.stderr).toContain('same Idempotency-Key');

    const list = await runCli(['pets', 'list', '--json'], { env });
    expect(JSON.parse(list.stdout)).toEqual([{ id: 1, name: 'Rex', categoryId: 1 }]);
  }, 30_000);

  it('one key sent at once to two sandbox processes sharing a file: one pet', async () => {
    const database = join(folder(), 'shared.db');
    const [a, b] = [await serve(['--db', database]), await serve(['--db', database])];
    const replies = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        fetch(`${(i % 2 ? a : b).apiBaseUrl}/pets`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${KEY}`,
            'content-type': 'application/json',
            'idempotency-key': 'one-key',
          },
          body: '{"name":"Rex","categoryId":1}',
        }).then(async (response) => [response.status, await response.text()]),
      ),
    );
    expect(new Set(replies.map((reply) => JSON.stringify(reply)))).toEqual(
      new Set([JSON.stringify([201, '{"id":1,"name":"Rex","categoryId":1}'])]),
    );
    for (const sandbox of [a, b]) await sandbox.stop();
    sandboxes.splice(0);
    expect(petsIn(database).count).toBe(1);
  }, 30_000);

  it('--dry-run sends nothing (the server logs no request) and never prints the key', async () => {
    const server = await startTestServer(() => undefined);
    servers.push(server);
    const secret = 'sk_live_dry_run_SECRET';
    const env = {
      HOME: freshHome(),
      PETSTORE_BASE_URL: `${server.url}/v1`,
      PETSTORE_QUICKSTART_URL: `${server.url}/quickstart`,
      PETSTORE_API_KEY: secret,
    };
    const input = join(folder(), 'two.ndjson');
    writeFileSync(input, '{"name":"A","categoryId":1}\n{"name":"B","categoryId":2}\n');
    for (const args of [
      ['pets', 'add', '--name', 'Rex', '--category-id', '1', '--dry-run'],
      ['pets', 'import', input, '--dry-run', '--verbose'],
      ['message', 'send', 'hello', '--dry-run'],
    ]) {
      const result = await runCli(args, { env });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout + result.stderr).not.toContain(secret);
      for (const line of lines(result.stdout)) {
        const request = JSON.parse(line) as { method: string; headers: Record<string, string> };
        expect(request.method).toBe('POST');
        expect(request.headers.authorization).toBe('Bearer ****');
      }
    }
    expect(server.requests).toHaveLength(0);
  }, 30_000);
});
