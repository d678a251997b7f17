import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, freshHome, runCli } from '../helpers/run-cli.js';
import { sendJson, startTestServer, type TestServer } from '../helpers/test-server.js';
import { waitUntil } from '../helpers/wait-until.js';

const servers: TestServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

/** A service that creates every pet after `state.delayMs`, and counts the pets it created. */
async function slowService(delayMs: number) {
  let nextId = 1;
  const state = { created: 0, received: 0, delayMs };
  const server = await startTestServer((req, res) => {
    if (req.method !== 'POST') {
      sendJson(
        res,
        200,
        JSON.stringify(
          Array.from({ length: 20_000 }, (_, i) => ({ id: i, name: `pet ${i}`, categoryId: 1 })),
        ),
      );
      return;
    }
    state.received++;
    setTimeout(() => {
      state.created++;
      sendJson(res, 201, JSON.stringify({ id: nextId++, ...(JSON.parse(req.body) as object) }));
    }, state.delayMs).unref();
  });
  servers.push(server);
  return { server, state };
}

function records(count: number): string {
  return Array.from({ length: count }, (_, i) => `{"name":"P${i}","categoryId":1}\n`).join('');
}

/**
 * Runs `petstore ARGS SINK` in bash (SINK: `| head -1 >/dev/null`, `>/dev/full`); resolves
 * with petstore's exit code and stderr.
 */
function pipeline(
  args: string[],
  sink: string,
  env: Record<string, string>,
  input = '',
): Promise<{ code: number; stderr: string }> {
  const quoted = args.map((arg) => `'${arg}'`).join(' ');
  const script = `"${process.execPath}" "${BIN}" ${quoted} 2>"$ERR" ${sink}; echo "\${PIPESTATUS[0]}"; cat "$ERR"`;
  const child = spawn('bash', ['-c', script], {
    env: { PATH: process.env.PATH, HOME: freshHome(), ERR: `${freshHome()}/err`, ...env },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  child.stdin.end(input);
  return new Promise((resolve) => {
    child.on('close', () => {
      clearTimeout(timer);
      const [code, ...stderr] = output.split('\n');
      resolve({ code: Number(code), stderr: stderr.join('\n') });
    });
  });
}

describe('closed pipes are normal', () => {
  it('--help | head -1 ends quietly with exit 0', async () => {
    const result = await pipeline(['--help'], '| head -1 >/dev/null', {});
    expect(result).toEqual({ code: 0, stderr: '' });
  });

  it('pets list | head -c 10 ends quietly with exit 0', async () => {
    const { server } = await slowService(0);
    const result = await pipeline(['pets', 'list'], '| head -c 10 >/dev/null', {
      PETSTORE_BASE_URL: `${server.url}/v1`,
      PETSTORE_API_KEY: 'sk_test_k_pipes_key',
    });
    expect(result).toEqual({ code: 0, stderr: '' });
  });

  it('a bulk add piped to head -1 stops sending and says on stderr what it created', async () => {
    const { server, state } = await slowService(5);
    const result = await pipeline(
      ['pets', 'import', '-', '--concurrency', '2'],
      '| head -1 >/dev/null',
      { PETSTORE_BASE_URL: `${server.url}/v1`, PETSTORE_API_KEY: 'sk_test_k_pipes_key' },
      records(400),
    );
    expect(result.code).toBe(141);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    const reported = /standard output was closed: 400 records to \S+: created (\d+) now/.exec(
      result.stderr,
    );
    expect(reported, result.stderr).not.toBeNull();
    expect(Number(reported![1])).toBe(state.created);
    expect(state.created).toBeLessThan(400);
    const ids = /created ids: ([\d, ]+)/.exec(result.stderr)![1]!.split(', ');
    expect(ids).toHaveLength(state.created);
  });
});

describe.skipIf(!existsSync('/dev/full'))('a stdout that cannot be written fails the run', () => {
  const failed = (stderr: string) => JSON.parse(stderr.trim().split('\n').at(-1)!) as object;

  it.each([[['--version']], [['--help']], [['completion', 'bash']]])(
    '%j > /dev/full exits 2 and says so, without a stack trace',
    async (args) => {
      const result = await pipeline(args, '>/dev/full', {});
      expect(result.code).toBe(2);
      expect(failed(result.stderr)).toMatchObject({
        code: 'output_failed',
        message: expect.stringContaining('ENOSPC') as unknown,
      });
    },
  );

  it('pets list > /dev/full exits 2, not 0 as for a reader that went away', async () => {
    const { server } = await slowService(0);
    const result = await pipeline(['pets', 'list', '--json'], '>/dev/full', {
      PETSTORE_BASE_URL: `${server.url}/v1`,
      PETSTORE_API_KEY: 'sk_test_k_full_key',
    });
    expect(result.code).toBe(2);
    expect(failed(result.stderr)).toMatchObject({ code: 'output_failed' });
  });

  it('a bulk add stops; its resume prints every pet it created, none twice', async () => {
    const { server, state } = await slowService(0);
    const env = { PETSTORE_BASE_URL: `${server.url}/v1`, PETSTORE_API_KEY: 'sk_test_k_full_key' };
    const journal = `${freshHome()}/run.journal`;
    const result = await pipeline(
      ['pets', 'import', '-', '--journal', journal],
      '>/dev/full',
      env,
      records(50),
    );
    expect(result.code).toBe(2);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(failed(result.stderr)).toMatchObject({
      code: 'output_failed',
      hint: expect.stringContaining(
        `... | petstore --base-url ${server.url}/v1 pets import - --resume ${journal}`,
      ) as unknown,
    });
    expect(state.created).toBeGreaterThan(0);
    const resumed = await runCli(['pets', 'import', '-', '--resume', journal], {
      env,
      input: records(50),
    });
    expect(resumed.code).toBe(0);
    const ids = resumed.stdout
      .trimEnd()
      .split('\n')
      .map((line) => (JSON.parse(line) as { id: number }).id);
    // The resume created the rest and printed them, and the pets the first run could not print.
    expect(state.created).toBe(50);
    expect(new Set(ids).size).toBe(50);
  });
});

describe('an interrupted bulk add leaves a complete record', () => {
  /** Starts a bulk add of 300 records; resolves once `linesBeforeSignal` pets are on stdout. */
  async function startBulk(delayMs: number, linesBeforeSignal: number) {
    const service = await slowService(delayMs);
    const child = spawn(process.execPath, [BIN, 'pets', 'import', '-', '--concurrency', '16'], {
      env: {
        PATH: process.env.PATH,
        HOME: freshHome(),
        PETSTORE_BASE_URL: `${service.server.url}/v1`,
        PETSTORE_API_KEY: 'k_signals',
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stdin.end(records(300));
    await waitUntil(
      () => stdout.split('\n').length > linesBeforeSignal,
      `${linesBeforeSignal} pets on stdout`,
    );
    return { child, exited, service, out: () => stdout, err: () => stderr };
  }

  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)('on %s: finishes what is in flight, records it, exits %i', async (signal, code) => {
    const run = await startBulk(100, 1);
    run.child.kill(signal);
    expect(await run.exited).toBe(code);
    const lines = run.out().trimEnd().split('\n');
    // Every pet the service created is on stdout: none in flight was lost.
    expect(lines).toHaveLength(run.service.state.created);
    expect(run.service.state.created).toBeLessThan(300);
    expect(run.err()).toContain(`${signal}: starting no more requests`);
    expect(run.err()).toMatch(
      new RegExp(
        `${signal}: 300 records to http://127\\.0\\.0\\.1:\\d+/v1: created ${lines.length} now; \\d+ not attempted`,
      ),
    );
    expect(run.err()).not.toMatch(/\n\s+at /);
  });

  it('a second signal stops at once and names the records left unknown', async () => {
    const run = await startBulk(20, 1);
    // From now on the service holds every request for a minute.
    run.service.state.delayMs = 60_000;
    const before = run.service.state.received;
    await waitUntil(() => run.service.state.received > before, 'a request the service holds');
    run.child.kill('SIGINT');
    await waitUntil(() => run.err().includes('starting no more requests'), 'the first stop');
    // At once: waiting on the held requests would outlast this test's time.
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(130);
    const lines = run.out().trimEnd().split('\n');
    expect(run.err()).toMatch(
      new RegExp(
        `stopped at once on a second SIGINT: 300 records to \\S+: created ${lines.length} now; (\\d+) unknown \\(record [\\d, ]+(?:and \\d+ more)?\\)`,
      ),
    );
    // The JSON summary still comes as the last line before the error.
    const errLines = run.err().trimEnd().split('\n');
    const summary = JSON.parse(errLines.at(-2)!) as { summary: { unknown: number } };
    expect(summary.summary.unknown).toBeGreaterThan(0);
    expect(JSON.parse(errLines.at(-1)!)).toMatchObject({ code: 'interrupted' });
  });
});

describe('sandbox serve says what is wrong with where it was told to listen', () => {
  it('a port already in use: exit 2 with how to choose another, not the bug message', async () => {
    const { server } = await slowService(0);
    const port = new URL(server.url).port;
    const result = await runCli(['sandbox', 'serve', '--memory', '--port', port]);
    expect(result.code).toBe(2);
    expect(JSON.parse(result.stderr)).toEqual({
      code: 'usage',
      message: `127.0.0.1 port ${port} is already in use`,
      status: 0,
      hint: 'Stop what listens there, or choose another port: --port N (0 picks a free one).',
    });
  });
});
