import { beforeAll, describe, expect, it } from 'vitest';
import { freshHome, runCli } from '../helpers/run-cli.js';

/** The figures, over real HTTP: the embedded sandbox holding 1,234 pets. */
describe('pets list --all against the sandbox profile', () => {
  const env = { HOME: freshHome() };
  const total = 1234;

  beforeAll(async () => {
    const records = Array.from(
      { length: total },
      (_, i) =>
        `{"name":"pet ${i + 1}","categoryId":${i % 5}${i % 4 === 0 ? ',"status":"sold"' : ''}}`,
    ).join('\n');
    const added = await runCli(
      ['--profile', 'sandbox', '-q', 'pets', 'import', '-', '--concurrency', '16'],
      { env, input: records },
    );
    expect(added.code).toBe(0);
  }, 60_000);

  it('prints every pet once, in id order, page by page', async () => {
    const result = await runCli(['--profile', 'sandbox', 'pets', 'list', '--all', '-o', 'ndjson'], {
      env,
    });
    expect(result.code).toBe(0);
    const ids = result.stdout
      .trimEnd()
      .split('\n')
      .map((line) => (JSON.parse(line) as { id: number }).id);
    expect(ids).toHaveLength(total);
    expect(new Set(ids).size).toBe(total);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(result.stderr).toBe('');
  });

  it('--max-items 150 --json gives 150 in one valid array', async () => {
    const result = await runCli(
      ['--profile', 'sandbox', 'pets', 'list', '--max-items', '150', '--json'],
      { env },
    );
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toHaveLength(150);
  });

  it('filters on the service across pages, and CSV has one header and a row per pet', async () => {
    const result = await runCli(
      [
        '--profile',
        'sandbox',
        'pets',
        'list',
        '--all',
        '--status',
        'sold',
        '--limit',
        '7',
        '-o',
        'csv',
        '--fields',
        'id,status',
      ],
      { env },
    );
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\r\n');
    expect(lines[0]).toBe('id,status');
    expect(lines.slice(1)).toHaveLength(Math.ceil(total / 4));
    expect(lines.slice(1).every((line) => line.endsWith(',sold'))).toBe(true);
  });
});
