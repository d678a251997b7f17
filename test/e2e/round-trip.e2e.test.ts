import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseJson } from '../../src/core/json.js';
import { sandboxService } from '../helpers/sandbox-service.js';
import { runCli } from '../helpers/run-cli.js';

/**
 * A listing read back: `pets list -o FORMAT` from one service, `pets import` into a fresh
 * one, and the second lists the same names, categories (int64 exact) and statuses.
 */

/** A sandbox of its own in this process (stopped after each test): its URL and key. */
async function sandbox() {
  const { env } = await sandboxService();
  return { PETSTORE_BASE_URL: env.PETSTORE_BASE_URL, PETSTORE_API_KEY: env.PETSTORE_API_KEY };
}

/** Pets whose every field a careless export would change. */
const PETS = [
  { name: 'Rex', categoryId: 1, status: 'available' },
  { name: '=HYPERLINK("http://x")', categoryId: '9223372036854775807', status: 'sold' },
  { name: 'a, "quoted"\nsecond line', categoryId: '-9223372036854775808' },
  { name: "'already guarded", categoryId: 2, status: 'pending' },
  { name: '\ttab\\n and backslash', categoryId: 3 },
  { name: '-1', categoryId: 4 },
  { name: '🐶 שלום مرحبا', categoryId: 5, status: 'available' },
];

/** The pets as a service holds them, without their ids, int64 as text. */
async function listed(env: Record<string, string>): Promise<unknown[]> {
  const ran = await runCli(['pets', 'list', '--all', '-o', 'ndjson'], { env });
  expect(ran.code, ran.stderr).toBe(0);
  return ran.stdout
    .trim()
    .split('\n')
    .map((line) => {
      const pet = parseJson(line) as Record<string, unknown>;
      delete pet.id;
      return pet;
    });
}

describe('pets list -o FORMAT, read back by pets import', () => {
  it.each(['json', 'ndjson', 'csv', 'tsv'])('%s', async (format) => {
    const from = await sandbox();
    for (const pet of PETS) {
      const body = JSON.stringify(pet).replace(/"categoryId":"(-?\d+)"/, '"categoryId":$1');
      const response = await fetch(`${from.PETSTORE_BASE_URL}/pets`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${from.PETSTORE_API_KEY}`,
          'content-type': 'application/json',
        },
        body,
      });
      expect(response.status).toBe(201);
    }
    const exported = await runCli(['pets', 'list', '--all', '-o', format], { env: from });
    expect(exported.code, exported.stderr).toBe(0);
    const file = join(mkdtempSync(join(tmpdir(), 'petstore-trip-')), `pets.${format}`);
    writeFileSync(file, exported.stdout);

    const to = await sandbox();
    const added = await runCli(['pets', 'import', file, '-o', 'ndjson'], { env: to });
    expect(added.code, added.stderr).toBe(0);
    expect(added.stderr).toContain(`every record of ${file} carries an id, which is ignored`);
    // Sent four at a time: the order they were created in is not the input's.
    const normal = (pets: unknown[]) =>
      pets
        .map((pet) => ({
          ...(pet as { name: string }),
          categoryId: String((pet as { categoryId: unknown }).categoryId),
        }))
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    expect(normal(await listed(to))).toEqual(normal(PETS));
    expect(normal(await listed(from))).toEqual(normal(PETS));
  });
});
