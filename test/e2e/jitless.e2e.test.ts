import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { profileHome } from '../helpers/mcp-raw.js';
import { runCli } from '../helpers/run-cli.js';
import { sandboxService } from '../helpers/sandbox-service.js';

describe('petstore on a Node without WebAssembly (--jitless)', () => {
  it('says so before sending anything, not that the network failed or that a write may have happened', async () => {
    const sandbox = await sandboxService();
    const env = { ...sandbox.env, NODE_OPTIONS: '--jitless' };
    const add = await runCli(['pets', 'add', '--name', 'Rex', '--category-id', '1'], { env });
    expect(add.code).toBe(2);
    expect(add.stdout).toBe('');
    expect(add.stderr).toContain('without WebAssembly');
    expect(add.stderr).toContain('nothing was sent');
    expect(add.stderr).not.toMatch(/outcome is unknown/);
    const list = await runCli(['pets', 'list'], { env });
    expect(list.code).toBe(2);
    expect(sandbox.served).toEqual([]);
  });

  it('refuses a bulk run and a smoke check before a journal or a check starts', async () => {
    const sandbox = await sandboxService();
    const env = { ...sandbox.env, NODE_OPTIONS: '--jitless' };
    const folder = mkdtempSync(join(tmpdir(), 'petstore-jitless-'));
    const input = join(folder, 'pets.ndjson');
    writeFileSync(input, '{"name":"A","categoryId":1}\n{"name":"B","categoryId":2}\n');
    const bulk = await runCli(['pets', 'import', input], { env });
    expect(bulk.code, bulk.stderr).toBe(2);
    expect(bulk.stderr).toContain('without WebAssembly');
    expect(bulk.stderr).not.toContain('Journal:');
    // No journal was begun: nothing to resume, nothing counted failed.
    const journals = await runCli(['journal', 'list', '--json'], { env: sandbox.env });
    expect(JSON.parse(journals.stdout)).toEqual([]);
    const smoke = await runCli(['smoke'], { env });
    expect(smoke.code, smoke.stderr).toBe(2);
    expect(smoke.stderr).toContain('without WebAssembly');
    expect(sandbox.served).toEqual([]);
  });

  it('says so where WebAssembly is there but can have no memory', async () => {
    const sandbox = await sandboxService();
    const add = await runCli(['pets', 'add', '--name', 'Rex', '--category-id', '1'], {
      env: sandbox.env,
      nodeArgs: ['--wasm-max-mem-pages=0'],
    });
    expect(add.code).toBe(2);
    expect(add.stderr).toContain('cannot give WebAssembly memory');
    expect(add.stderr).not.toMatch(/outcome is unknown/);
    expect(sandbox.served).toEqual([]);
  });

  it('petstore mcp refuses to start, saying why, rather than fail every call', async () => {
    const sandbox = await sandboxService();
    const home = await profileHome(sandbox.url, 'staging', 'allow');
    const mcp = await runCli(['mcp', '--profile', 'staging', '--allow-writes'], {
      env: { HOME: home, PETSTORE_API_KEY: sandbox.key, NODE_OPTIONS: '--jitless' },
    });
    expect(mcp.code).toBe(2);
    expect(mcp.stdout).toBe('');
    expect(mcp.stderr).toContain('without WebAssembly');
    expect(mcp.stderr).toContain('NODE_OPTIONS');
    expect(sandbox.served).toEqual([]);
  });
});
