import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freshHome, runCli } from '../helpers/run-cli.js';
import { servedRequests, serveSandbox, type ServedSandbox } from '../helpers/serve-sandbox.js';

/** A service that takes N requests a second and says so: the client paces itself by it. */

const served: ServedSandbox[] = [];
afterEach(async () => {
  for (const sandbox of served.splice(0)) await sandbox.stop();
});

/** The statuses the sandbox logged, one a request. */
const statuses = (sandbox: ServedSandbox) =>
  servedRequests(sandbox).map((request) => request.status);

describe('a rate-limited service', () => {
  it('says its limit on every answer, and an import keeps to it instead of being refused', async () => {
    const sandbox = await serveSandbox(['--rate-limit', '100', '--memory']);
    served.push(sandbox);
    const answer = await fetch(`${sandbox.apiBaseUrl}/pets`, {
      headers: { authorization: 'Bearer sandbox-key' },
    });
    expect(answer.headers.get('ratelimit-policy')).toBe('"default";q=100;w=1');
    expect(answer.headers.get('ratelimit')).toMatch(/^"default";r=\d+;t=\d+$/);
    const folder = mkdtempSync(join(tmpdir(), 'petstore-pace-'));
    const rows = Array.from({ length: 300 }, (_, i) => `paced-${i},1`);
    writeFileSync(join(folder, 'pets.csv'), `name,categoryId\n${rows.join('\n')}\n`);
    const env = {
      HOME: freshHome(),
      PETSTORE_BASE_URL: sandbox.apiBaseUrl,
      PETSTORE_API_KEY: 'sandbox-key',
    };
    const imported = await runCli(
      ['pets', 'import', join(folder, 'pets.csv'), '--concurrency', '16', '-o', 'ndjson'],
      { env },
    );
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout.trim().split('\n')).toHaveLength(300);
    const sent = statuses(sandbox).slice(1);
    // At most 2% of the requests refused (429): the run waited for the quota instead.
    expect(sent.filter((status) => status === 429).length).toBeLessThanOrEqual(6);
    expect(sent.filter((status) => status === 201)).toHaveLength(300);
  }, 60_000);
});
