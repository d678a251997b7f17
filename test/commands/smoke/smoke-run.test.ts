import { describe, expect, it } from 'vitest';
import { runSmoke, type SmokeOptions } from '../../../src/commands/smoke/smoke.js';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NetworkError, SmokeKeyRefusedError } from '../../../src/core/errors.js';
import { exitCodeFor } from '../../../src/output/report-error.js';
import { sandboxService } from '../../helpers/sandbox-service.js';
import { optionsOf, runF } from '../../helpers/run-f.js';
import { verbContext } from '../../helpers/verb-context.js';

const options: SmokeOptions = {
  allowWrites: false,
  junitFile: undefined,
  maxLatencyMs: undefined,
  repeat: undefined,
  everyMs: undefined,
};

describe('runSmoke', () => {
  it('prints a row per check and says the tally', async () => {
    const { env } = await sandboxService();
    const { ctx, io } = verbContext({ env, raw: { output: 'json' } });
    await runSmoke(ctx, options);
    const rows = JSON.parse(io.out()) as { outcome: string; target: string }[];
    expect(rows.length).toBeGreaterThan(5);
    expect(rows.filter((row) => row.outcome === 'fail')).toEqual([]);
    expect(io.err()).toMatch(/smoke: \d+ passed, 0 failed/);
  });

  it("a refused key is the key's failure, with its hint", async () => {
    const { env } = await sandboxService();
    const { ctx } = verbContext({ env: { ...env, PETSTORE_API_KEY: 'sk_refused_by_sandbox' } });
    await expect(runSmoke(ctx, options)).rejects.toBeInstanceOf(SmokeKeyRefusedError);
  });

  it('a service that cannot be reached is one network error (exit 7), and the report says so', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'petstore-smoke-'));
    const junitFile = join(folder, 'smoke.xml');
    const { ctx, io } = verbContext({
      env: { PETSTORE_BASE_URL: 'http://127.0.0.1:9/v1', PETSTORE_API_KEY: 'sk_smoke_nowhere' },
      raw: { output: 'json', retries: '0' },
    });
    const error = await runSmoke(ctx, { ...options, junitFile }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NetworkError);
    expect(exitCodeFor(error)).toBe(7);
    expect(io.err()).toMatch(/smoke: 0 passed, 1 failed, \d+ skipped/);
    const xml = readFileSync(junitFile, 'utf8');
    expect(xml).toMatch(/failures="1"/);
    expect(xml).toContain('not run: the service cannot be reached');
  });

  it('a canary prints a line per round and the summary per check', async () => {
    const { env } = await sandboxService();
    const { ctx, io } = verbContext({ env, raw: { output: 'json' } });
    await runSmoke(ctx, { ...options, repeat: 2 });
    expect(io.err().match(/^\{"round":\{"round":\d,"of":2,/gm)).toHaveLength(2);
    const summary = JSON.parse(io.out()) as { runs: number }[];
    expect(summary.every((row) => row.runs === 2)).toBe(true);
  });
});

describe('smoke: flags to options (runF)', () => {
  it.each([
    [['smoke'], { allowWrites: false }],
    [['smoke', '--allow-writes'], { allowWrites: true, junitFile: undefined }],
    [
      ['smoke', '--repeat', '3', '--every', '2s', '--max-latency', '500', '--junit', 'r.xml'],
      { allowWrites: false, junitFile: 'r.xml', maxLatencyMs: 500, repeat: 3, everyMs: 2000 },
    ],
  ])('%j', async (argv, options) => {
    expect(await optionsOf(argv)).toEqual(options);
  });

  it.each([[['smoke', '--max-latency', '-1']], [['smoke', '--repeat', '0']]])(
    '%j is refused before the verb runs',
    async (argv) => {
      const result = await runF(argv);
      expect(result.code).toBe(2);
      expect(result.received).toEqual([]);
    },
  );
});
