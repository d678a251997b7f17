import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hostname, userInfo } from 'node:os';
import type { HistoryRow } from '../../src/commands/history/columns.js';
import { call, connectMcp } from '../helpers/mcp-client.js';
import { profileHome } from '../helpers/mcp-raw.js';
import { runCli } from '../helpers/run-cli.js';
import { sandboxService } from '../helpers/sandbox-service.js';

/**
 * The history of writes, as the built petstore keeps it in the state folder: one entry for
 * every write any front end sent or refused, and nothing secret in any file of that folder.
 */

/** Every file of the state folder, read whole (the history, its WAL, the journals). */
function stateFiles(home: string): string {
  const folder = join(home, '.local', 'state', 'petstore');
  const read = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory()
        ? read(join(dir, entry.name))
        : [readFileSync(join(dir, entry.name)).toString('latin1')],
    );
  return read(folder).join('\n');
}

async function history(env: Record<string, string>, args: string[] = []): Promise<HistoryRow[]> {
  const listed = await runCli(['history', '--json', '--limit', '1000', ...args], { env });
  expect(listed.code, listed.stderr).toBe(0);
  return listed.stdout.trim() === '' ? [] : (JSON.parse(listed.stdout) as HistoryRow[]);
}

describe('the history of writes', () => {
  it('records each write of the command line once, with what it made, and no secret', async () => {
    const sandbox = await sandboxService();
    const env = {
      ...sandbox.env,
      PETSTORE_QUICKSTART_URL: sandbox.url.replace(/\/v1$/, '/quickstart'),
    };
    const added = await runCli(['pets', 'add', '--name', 'Rex', '--category-id', '1', '--json'], {
      env,
    });
    expect(added.code, added.stderr).toBe(0);
    const pet = JSON.parse(added.stdout) as { id: number };

    const folder = mkdtempSync(join(tmpdir(), 'petstore-history-'));
    const file = join(folder, 'thirty.csv');
    const rows = Array.from({ length: 30 }, (_, i) => `p${i},${i + 1}`);
    writeFileSync(file, `name,categoryId\n${rows.join('\n')}\n`);
    const imported = await runCli(['pets', 'import', file, '--batch-id', 'hist-30', '--json'], {
      env,
    });
    expect(imported.code, imported.stderr).toBe(0);

    const text = 'the words of this message stay with the service';
    expect((await runCli(['message', 'send', text], { env })).code).toBe(0);
    const viaApi = await runCli(
      ['api', '-X', 'POST', '/pets', '-F', 'name=Tom', '-F', 'categoryId=2'],
      {
        env,
      },
    );
    expect(viaApi.code, viaApi.stderr).toBe(0);

    const all = await history(env, ['--since', '1h']);
    expect(all).toHaveLength(33);
    expect(all.every((entry) => entry.via === 'cli')).toBe(true);
    const single = all.find((entry) => entry.operation === 'pets add');
    expect(single).toMatchObject({ outcome: 'created', status: 201, resultId: String(pet.id) });
    const batch = all.filter((entry) => entry.batch === 'hist-30');
    expect(batch).toHaveLength(30);
    expect(new Set(batch.map((entry) => entry.record))).toEqual(
      new Set(Array.from({ length: 30 }, (_, i) => i + 1)),
    );
    expect(batch.every((entry) => entry.outcome === 'created' && entry.idempotencyKey)).toBe(true);
    expect(all.find((entry) => entry.operation === 'message send')).toMatchObject({
      outcome: 'queued',
      sent: { length: text.length },
    });
    expect(all.find((entry) => entry.operation === 'api')).toMatchObject({
      method: 'POST',
      path: '/v1/pets',
      status: 201,
    });
    expect(await history(env, ['--batch', 'hist-30', '--limit', '5'])).toHaveLength(5);
    expect(await history(env, ['--profile', 'production', '--via', 'cli'])).toEqual([]);

    const files = stateFiles(env.HOME);
    expect(files).not.toContain(text);
    expect(files).not.toContain(sandbox.key);
  });

  it("smoke's pet is created, with its fields, its refusal on purpose expected", async () => {
    const sandbox = await sandboxService();
    const env = { ...sandbox.env, PETSTORE_QUICKSTART_URL: '' };
    const smoke = await runCli(['smoke', '--allow-writes'], { env });
    expect(smoke.code, smoke.stderr).toBe(0);
    const created = await history(env, ['--outcome', 'created']);
    expect(created).toHaveLength(1);
    const pet = created[0]!;
    expect(pet).toMatchObject({ operation: 'smoke', method: 'POST', status: 201 });
    expect(pet.sent).toMatchObject({ categoryId: expect.any(Number) as number });
    expect(await history(env, ['--outcome', 'failed'])).toEqual([]);
    const expected = await history(env, ['--outcome', 'expected']);
    expect(expected).toHaveLength(1);
    expect(expected[0]).toMatchObject({ status: 400, sent: { name: 'petstore-smoke-invalid' } });
    // Who created this pet, and from where: the write found by the pet's id.
    const found = await history(env, ['--pet', pet.resultId!]);
    expect(found.map((entry) => entry.id)).toEqual([pet.id]);
    expect(found[0]).toMatchObject({ user: userInfo().username, host: hostname() });
    const name = (pet.sent as { name: string }).name;
    expect((await history(env, ['--name', name])).map((entry) => entry.id)).toEqual([pet.id]);
    // A dry run of pruning removes nothing.
    const dry = await runCli(['history', 'prune', '--older-than', '1s', '--dry-run'], { env });
    expect(dry.code, dry.stderr).toBe(0);
    expect(await history(env)).toHaveLength(2);
  });

  it('a history that cannot be written is one warning: the write goes on', async () => {
    const { env } = await sandboxService();
    const state = join(mkdtempSync(join(tmpdir(), 'petstore-history-')), 'state');
    writeFileSync(state, 'a file where the state folder would be');
    const added = await runCli(['pets', 'add', '--name', 'Rex', '--category-id', '1', '--json'], {
      env: { ...env, XDG_STATE_HOME: state },
    });
    expect(added.code, added.stderr).toBe(0);
    expect(JSON.parse(added.stdout)).toMatchObject({ name: 'Rex' });
    expect(added.stderr.match(/history of writes could not be written/g)).toHaveLength(1);
  });

  it('eight adds at once: eight entries', async () => {
    const { env } = await sandboxService();
    const runs = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        runCli(['pets', 'add', '--name', `at-once-${i}`, '--category-id', '1'], { env }),
      ),
    );
    expect(runs.map((run) => run.code)).toEqual(Array(8).fill(0));
    const entries = await history(env);
    const names = entries.map((entry) => (entry.sent as { name: string }).name);
    expect(names.sort()).toEqual(Array.from({ length: 8 }, (_, i) => `at-once-${i}`).sort());
  }, 60_000);

  it.each([
    [1, 'legacy'],
    [2, 'legacy'],
    [2, '2026-07-28'],
  ] as const)(
    "records an agent's allowed write and its refused one, naming its client (SDK %i, %s)",
    async (sdk, era) => {
      const sandbox = await sandboxService();
      const home = await profileHome(sandbox.url, 'staging', 'allow');
      expect(
        (
          await runCli(['profile', 'set', 'production', '--base-url', sandbox.url], {
            env: { HOME: home },
          })
        ).code,
      ).toBe(0);
      const env = { HOME: home, PETSTORE_API_KEY: sandbox.key };
      const allowed = await connectMcp({
        env,
        sdk,
        era,
        args: ['--profile', 'staging', '--allow-writes'],
      });
      const added = await call(allowed, 'add_pet', { name: 'Agent', category_id: '3' });
      expect(added.isError, JSON.stringify(added)).not.toBe(true);
      await allowed.close();
      const denied = await connectMcp({
        env,
        sdk,
        era,
        args: ['--profile', 'production', '--allow-writes'],
      });
      // A key in what the agent sent is masked in the history as everywhere.
      const refused = await call(denied, 'add_pet', {
        name: `Nope ${sandbox.key}`,
        category_id: '3',
      });
      expect(refused.isError).toBe(true);
      await denied.close();

      const entries = await history({ HOME: home }, ['--via', 'mcp']);
      expect(entries).toHaveLength(2);
      const [refusal, write] = entries;
      expect(write).toMatchObject({
        profile: 'staging',
        operation: 'pets add',
        outcome: 'created',
      });
      expect(refusal).toMatchObject({ profile: 'production', outcome: 'refused', status: 0 });
      expect(JSON.stringify(refusal!.sent)).toContain('Nope');
      for (const entry of entries) expect(entry.client).toMatch(/^petstore-tests(-sdk1)? 1\.0\.0$/);
      expect(sandbox.served.filter((request) => request.method === 'POST')).toHaveLength(1);
      expect(stateFiles(home)).not.toContain(sandbox.key);
    },
    60_000,
  );
});
