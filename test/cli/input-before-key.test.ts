import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/main.js';
import { fakeIO } from '../helpers/fake-io.js';
import { freshHome } from '../helpers/run-cli.js';

/**
 * A bad input is refused as such (exit 2), before the service is reached: no missing key, bad
 * profile or plain-http refusal hides it, and nothing is started for it (not the sandbox). An
 * import's file is the exception: it may take seconds to read, so a profile that does not
 * exist or a missing key is said first.
 */

const bad = join(mkdtempSync(join(tmpdir(), 'petstore-early-')), 'bad.ndjson');
writeFileSync(bad, '{"name":"A"}\n');

describe('the input is checked before the service is reached', () => {
  it.each([
    [['message', 'send', ''], 'the message is empty'],
    [['message', 'send', '   ', '--dry-run'], 'the message is empty'],
    [['pets', 'add', '--name', ' ', '--category-id', '1'], 'must not be empty'],
    [['pets', 'import', '--resume', bad], 'is not a petstore journal'],
  ])('%j', async (args, message) => {
    for (const where of [
      ['--base-url', 'https://example.invalid/v1'], // no key for it
      ['--profile', 'nosuch'],
      [], // a fresh home: the sandbox profile
    ]) {
      const io = fakeIO();
      const home = freshHome();
      expect(await main([...where, ...args], io, { HOME: home })).toBe(2);
      expect(io.err()).toContain(message);
      expect(io.err()).not.toContain('using the local sandbox');
    }
  });
});

describe('an import says a missing profile or key before it reads its input', () => {
  it.each([
    [['--base-url', 'https://example.invalid/v1'], 3, 'no API key for https://example.invalid/v1'],
    [['--profile', 'nosuch'], 2, 'no profile named \\"nosuch\\"'],
    [[], 2, 'line 1: \\"categoryId\\" is required'],
  ])('%j', async (where, code, message) => {
    for (const dryRun of [[], ['--dry-run']]) {
      const io = fakeIO();
      const args = [...where, 'pets', 'import', bad, ...dryRun];
      expect(await main(args, io, { HOME: freshHome() })).toBe(code);
      expect(io.err()).toContain(message);
      expect(io.err()).not.toContain('using the local sandbox');
    }
  });
});
