import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/core/errors.js';
import { runHistoryList } from '../../../src/commands/history/list.js';
import { runHistoryPrune } from '../../../src/commands/history/prune.js';
import { runHistoryShow } from '../../../src/commands/history/show.js';
import { historyFile } from '../../../src/config/paths.js';
import type { HistoryEntry } from '../../../src/history/entry.js';
import { HistoryStore } from '../../../src/history/store.js';
import { entry } from '../../helpers/history-entry.js';
import { optionsOf, runF } from '../../helpers/run-f.js';
import { verbContext } from '../../helpers/verb-context.js';

const DAY = 86_400_000;

describe('history verbs: flags to options (runF)', () => {
  it.each([
    [['history'], {}],
    [['history', '--since', '1h', '--limit', '10'], { since: 3_600_000, limit: 10 }],
    [
      ['history', '--via', 'mcp', '--outcome', 'refused, Declined', '--batch', 'b-1'],
      { via: 'mcp', outcome: ['refused', 'declined'], batch: 'b-1' },
    ],
    [['history', '--fields', 'id,outcome'], { fields: ['id', 'outcome'] }],
    [['history', 'show', '42'], { id: 42 }],
    [['history', 'prune', '--older-than', '30d'], { olderThan: 30 * DAY }],
    [['history', 'prune', '--older-than', '1s', '--dry-run'], { olderThan: 1000, dryRun: true }],
    [['history', '--pet', '153', '--name', 'Rex'], { pet: '153', name: 'Rex' }],
  ])('%j', async (argv, options) => {
    expect(await optionsOf(argv)).toEqual(options);
  });

  it.each([
    [['history', '--since', 'soon'], '--since must be a duration'],
    [['history', '--via', 'web'], 'Allowed choices are cli, mcp'],
    [['history', '--outcome', 'lost'], '--outcome takes created'],
    [['history', 'show', 'x'], 'ID must be a whole number'],
    [['history', 'prune'], "required option '--older-than <duration>' not specified"],
  ])('%j is refused before the verb runs', async (argv, message) => {
    const result = await runF(argv);
    expect(result.code).toBe(2);
    expect(result.received).toEqual([]);
    expect(result.err).toContain(message);
  });
});

describe('history verbs, run with typed options', () => {
  function seeded() {
    const { ctx, io } = verbContext({ raw: { output: 'json' } });
    const store = HistoryStore.open(historyFile(ctx.env));
    store.append([
      entry({ at: new Date(Date.now() - 2 * DAY).toISOString(), resultId: 'old' }),
      entry({
        via: 'mcp',
        client: 'agent 1',
        outcome: 'refused',
        status: 0,
        profile: 'production',
      }),
      entry({ resultId: 'new', user: 'ops', host: 'build-7' }),
    ]);
    store.close();
    return { ctx, io };
  }

  it('lists newest first, every field in JSON, as filtered', async () => {
    const { ctx, io } = seeded();
    await runHistoryList(ctx, { since: DAY });
    const listed = JSON.parse(io.out()) as HistoryEntry[];
    expect(listed.map((e) => e.id)).toEqual([3, 2]);
    expect(listed[1]).toMatchObject({ via: 'mcp', client: 'agent 1', outcome: 'refused' });
  });

  it.each([
    [2, true],
    [3, false],
  ])('--limit %i says whether more are recorded: %s', async (limit, more) => {
    const { ctx, io } = seeded();
    await runHistoryList(ctx, { limit });
    expect((JSON.parse(io.out()) as HistoryEntry[]).map((e) => e.id)).toEqual(
      [3, 2, 1].slice(0, limit),
    );
    expect(io.err().includes(`Stopped at --limit ${limit}; more writes are recorded`)).toBe(more);
  });

  it('--profile (a global option) lists only that profile’s writes', async () => {
    const { ctx } = seeded();
    const { ctx: production, io } = verbContext({
      raw: { output: 'json', profile: 'production' },
      env: { HOME: ctx.env.HOME! },
    });
    await runHistoryList(production, {});
    expect((JSON.parse(io.out()) as HistoryEntry[]).map((e) => e.id)).toEqual([2]);
  });

  it('says when nothing was ever recorded, to a person; an empty list to a program', async () => {
    const person = verbContext({ raw: { output: 'table' }, tty: true });
    await runHistoryList(person.ctx, {});
    expect(person.io.err()).toContain('No writes recorded that match.');
    const program = verbContext({ raw: { output: 'json' } });
    await runHistoryList(program.ctx, {});
    expect(JSON.parse(program.io.out())).toEqual([]);
  });

  it('show gives one entry whole; an id not there is a usage error', async () => {
    const { ctx, io } = seeded();
    await runHistoryShow(ctx, { id: 1 });
    expect(JSON.parse(io.out())).toMatchObject({ id: 1, resultId: 'old' });
    await expect(runHistoryShow(ctx, { id: 9 })).rejects.toThrow('no write 9 in the history');
  });

  it('gives what was sent as the object it is in JSON, and who sent it from where', async () => {
    const { ctx, io } = seeded();
    await runHistoryList(ctx, {});
    const listed = JSON.parse(io.out()) as Record<string, unknown>[];
    expect(listed[0]!.sent).toEqual({ name: 'Rex', categoryId: 1 });
    expect(listed[0]).toMatchObject({ user: 'ops', host: 'build-7' });
  });

  it('keeps an int64 category digit for digit, in JSON and at a terminal', async () => {
    const { ctx, io } = verbContext({ raw: { output: 'json' } });
    const store = HistoryStore.open(historyFile(ctx.env));
    store.append([entry({ sent: '{"name":"Big","categoryId":9223372036854775807}' })]);
    store.close();
    await runHistoryList(ctx, {});
    expect(io.out()).toContain('"categoryId":9223372036854775807');
    const person = verbContext({
      raw: { output: 'table' },
      tty: true,
      columns: 120,
      env: { HOME: ctx.env.HOME!, NO_COLOR: '1' },
    });
    await runHistoryShow(person.ctx, { id: 1 });
    expect(person.io.out()).toContain('"categoryId":9223372036854775807');
  });

  it('show at a terminal prints one field a line, every one of them, within its width', async () => {
    const { ctx } = seeded();
    const person = verbContext({
      raw: { output: 'table' },
      tty: true,
      columns: 40,
      env: { HOME: ctx.env.HOME!, NO_COLOR: '1' },
    });
    await runHistoryShow(person.ctx, { id: 3 });
    const lines = person.io.out().trimEnd().split('\n');
    expect(lines).toContain('id:             3');
    expect(lines).toContain('resultId:       new');
    expect(lines).toContain('client:         -');
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(40);
    // A value longer than the room left goes on under itself, whole: never cut.
    const value = (field: string) => {
      const at = lines.findIndex((line) => line.startsWith(`${field}:`));
      const rest = lines.slice(at + 1);
      const more = rest.findIndex((line) => !line.startsWith(' '));
      const parts = [lines[at]!.slice(16), ...rest.slice(0, more === -1 ? undefined : more)];
      return parts.map((part) => part.trim()).join('');
    };
    expect(value('sent')).toBe('{"name":"Rex","categoryId":1}');
    expect(value('service')).toBe('https://staging.example/v1');
  });

  it("the table shows the agent's client where the terminal is wide enough", async () => {
    const { ctx } = seeded();
    const narrow = verbContext({
      raw: { output: 'table' },
      tty: true,
      columns: 80,
      env: { HOME: ctx.env.HOME!, NO_COLOR: '1' },
    });
    await runHistoryList(narrow.ctx, {});
    expect(narrow.io.out().split('\n')[0]).not.toContain('CLIENT');
    for (const line of narrow.io.out().split('\n')) expect(line.length).toBeLessThanOrEqual(80);
    const wide = verbContext({
      raw: { output: 'table' },
      tty: true,
      columns: 140,
      env: { HOME: ctx.env.HOME!, NO_COLOR: '1' },
    });
    await runHistoryList(wide.ctx, {});
    expect(wide.io.out().split('\n')[0]).toContain('CLIENT');
    expect(wide.io.out()).toContain('agent 1');
  });

  it('prune --dry-run says how many would go and removes none', async () => {
    const { ctx, io } = seeded();
    await runHistoryPrune(ctx, { olderThan: DAY, dryRun: true });
    expect(io.err()).toContain('Would remove 1 recorded write older than 24 h.');
    const store = HistoryStore.open(historyFile(ctx.env));
    expect(store.list({ limit: 10 }).map((e) => e.id)).toEqual([3, 2, 1]);
    store.close();
  });

  it('prune removes what is older than asked, and says how many', async () => {
    const { ctx, io } = seeded();
    await runHistoryPrune(ctx, { olderThan: DAY });
    expect(io.err()).toContain('Removed 1 recorded write older than 24 h.');
    const store = HistoryStore.open(historyFile(ctx.env));
    expect(store.list({ limit: 10 }).map((e) => e.id)).toEqual([3, 2]);
    store.close();
  });

  it('a history another program holds locked is said so, not called unreadable', async () => {
    const { ctx } = seeded();
    const holder = new DatabaseSync(historyFile(ctx.env));
    holder.exec('PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE');
    try {
      const error = await runHistoryList(ctx, {}).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(UsageError);
      expect((error as UsageError).message).toBe(
        `the history ${historyFile(ctx.env)} is locked by another program`,
      );
      expect((error as UsageError).hint).toContain('Run the command again once it ends');
    } finally {
      holder.exec('COMMIT');
      holder.close();
    }
  });
});
