import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useConfigHome } from '../helpers/config-home.js';

const cli = useConfigHome();
const { run } = cli;

describe('damaged or unreadable config', () => {
  function writeRaw(content: string) {
    mkdirSync(join(cli.home, 'cfg'), { recursive: true, mode: 0o700 });
    writeFileSync(cli.configFile, content, { mode: 0o600 });
  }

  it.each([
    ['{broken', /config file .*config.json is not valid JSON/],
    ['', /config file .*config.json is not valid JSON/],
    ['[1,2]', /is damaged: expected a JSON object/],
    ['{"profiles":{"qa":{"baseUrl":5}}}', /profile "qa": "baseUrl" is not a string/],
    ['{"schemaVersion":99,"profiles":{}}', /written by a newer petstore/],
  ])('reports %j clearly and leaves the file byte for byte', async (content, message) => {
    writeRaw(content);
    for (const args of [
      ['profile', 'list'],
      ['profile', 'set', 'qa', '--base-url', 'https://qa.test/v1'],
      ['auth', 'logout', '--profile', 'staging'],
    ]) {
      const result = await run(args, { tty: true });
      expect(result.code).toBe(2);
      expect(result.err).toMatch(message);
      expect(result.err).toContain('hint:');
      expect(result.err).not.toMatch(/\n\s+at /);
      expect(readFileSync(cli.configFile, 'utf8')).toBe(content);
    }
  });

  it('refuses a config file far larger than any petstore config, and leaves it alone', async () => {
    const huge = `{"profiles":{},"padding":"${'x'.repeat(2 * 1024 * 1024)}"}`;
    writeRaw(huge);
    const result = await run(['profile', 'list']);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(
      /config file .*config\.json is larger than 1 MiB; a petstore config is a small file/,
    );
    expect(readFileSync(cli.configFile, 'utf8')).toBe(huge);
  });

  it('reports a config path it cannot read', async () => {
    mkdirSync(cli.configFile, { recursive: true });
    const result = await run(['profile', 'list']);
    expect(result.code).toBe(2);
    expect(result.err).toContain(`config file ${cli.configFile} is a folder, not a regular file`);
  });

  it('reports a config folder it cannot create', async () => {
    writeFileSync(join(cli.home, 'blocker'), 'a file where the folder should be');
    const result = await run(['profile', 'use', 'staging'], {
      env: { PETSTORE_CONFIG_DIR: join(cli.home, 'blocker', 'cfg') },
    });
    expect(result.code).toBe(2);
    expect(result.err).toContain(`cannot create ${join(cli.home, 'blocker', 'cfg')}`);
  });
});
