import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import type { HistoryRow } from '../../src/commands/history/columns.js';
import { call, connectMcp } from '../helpers/mcp-client.js';
import { profileHome } from '../helpers/mcp-raw.js';
import { freshHome, runCli } from '../helpers/run-cli.js';
import { servedRequests, serveSandbox, type ServedSandbox } from '../helpers/serve-sandbox.js';

/**
 * One trace from the operator's CI step (TRACEPARENT) or an agent's call (_meta.traceparent)
 * through every request: the service's log and the history join on it.
 */

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT = `00-${TRACE}-00f067aa0ba902b7-01`;

const served: ServedSandbox[] = [];
afterEach(async () => {
  for (const sandbox of served.splice(0)) await sandbox.stop();
});

async function history(env: Record<string, string>): Promise<HistoryRow[]> {
  const listed = await runCli(['history', '--json'], { env });
  expect(listed.code, listed.stderr).toBe(0);
  return JSON.parse(listed.stdout) as HistoryRow[];
}

/** The traceparents the sandbox logged, one a request, in order. */
const logged = (sandbox: ServedSandbox) =>
  servedRequests(sandbox).map((request) => request.traceparent);

describe('trace context', () => {
  it("carries TRACEPARENT's trace on each request, a span of its own, into the history", async () => {
    const sandbox = await serveSandbox([]);
    served.push(sandbox);
    const env = {
      HOME: freshHome(),
      PETSTORE_BASE_URL: sandbox.apiBaseUrl,
      PETSTORE_API_KEY: 'sandbox-key',
    };
    const traced = { ...env, TRACEPARENT: PARENT };
    const added = await runCli(['pets', 'add', '--name', 'Rex', '--category-id', '1'], {
      env: traced,
    });
    expect(added.code, added.stderr).toBe(0);
    expect((await runCli(['pets', 'list'], { env: traced })).code).toBe(0);
    const sent = logged(sandbox);
    expect(sent).toHaveLength(2);
    for (const traceparent of sent) {
      expect(traceparent).toMatch(new RegExp(`^00-${TRACE}-[0-9a-f]{16}-01$`));
      expect(traceparent).not.toBe(PARENT);
    }
    expect(sent[0]).not.toBe(sent[1]);
    const [entry] = await history(env);
    expect(entry).toMatchObject({ operation: 'pets add', trace: TRACE });
    // Without one, each run starts its own trace: valid, and in its history entry too.
    expect(
      (await runCli(['pets', 'add', '--name', 'Tom', '--category-id', '1'], { env })).code,
    ).toBe(0);
    const own = logged(sandbox)[2]!;
    expect(own).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-00$/);
    expect(own.slice(3, 35)).not.toBe(TRACE);
    expect((await history(env))[0]!.trace).toBe(own.slice(3, 35));
    const byTrace = await runCli(['history', '--trace', TRACE, '--json'], { env });
    expect((JSON.parse(byTrace.stdout) as HistoryRow[]).map((row) => row.id)).toEqual([entry!.id]);
    // An import's journal keeps the trace of its run.
    const folder = mkdtempSync(join(tmpdir(), 'petstore-trace-'));
    writeFileSync(join(folder, 'pets.csv'), 'name,categoryId\nA,1\nB,2\n');
    const journal = join(folder, 'run.journal');
    const imported = await runCli(
      ['pets', 'import', join(folder, 'pets.csv'), '--journal', journal],
      { env: traced },
    );
    expect(imported.code, imported.stderr).toBe(0);
    const db = new DatabaseSync(journal, { readOnly: true });
    expect(db.prepare('SELECT trace FROM runs').all()).toEqual([{ trace: TRACE }]);
    db.close();
  });

  it.each([
    [1, 'legacy'],
    [2, 'legacy'],
    [2, '2026-07-28'],
  ] as const)(
    "an agent's tool call with _meta.traceparent sends its requests in that trace (SDK %i, %s)",
    async (sdk, era) => {
      const sandbox = await serveSandbox([]);
      served.push(sandbox);
      const home = await profileHome(sandbox.apiBaseUrl, 'staging', 'allow');
      const env = { HOME: home, PETSTORE_API_KEY: 'sandbox-key' };
      const session = await connectMcp({
        env,
        sdk,
        era,
        args: ['--profile', 'staging', '--allow-writes'],
      });
      try {
        const result = (await session.client.callTool({
          name: 'add_pet',
          arguments: { name: 'Agent', category_id: '3' },
          _meta: { traceparent: PARENT },
        })) as { isError?: boolean };
        expect(result.isError).not.toBe(true);
        const untraced = await call(session, 'list_pets', {});
        expect(untraced.isError).toBe(false);
      } finally {
        await session.close();
      }
      const [withTrace, without] = logged(sandbox);
      expect(withTrace).toMatch(new RegExp(`^00-${TRACE}-[0-9a-f]{16}-01$`));
      expect(without?.slice(3, 35)).not.toBe(TRACE);
    },
  );
});
