import { describe, expect, it } from 'vitest';
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
});
