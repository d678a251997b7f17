import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Command } from '@commander-js/extra-typings';
import { runCompletion } from '../../../src/commands/completion/completion.js';
import { main } from '../../../src/main.js';
import { fakeIO } from '../../helpers/fake-io.js';
import { optionsOf, runF } from '../../helpers/run-f.js';
import { verbContext } from '../../helpers/verb-context.js';

async function completion(shell: string) {
  const io = fakeIO();
  const code = await main(['completion', shell], io, {});
  return { code, out: io.out(), err: io.err() };
}

describe('petstore completion', () => {
  it('covers every command and the fixed option values in bash', async () => {
    const { code, out } = await completion('bash');
    expect(code).toBe(0);
    expect(out).toContain(
      '"") words="pets journal message profile auth sandbox smoke api doctor mcp history completion version"',
    );
    expect(out).toContain(
      '"pets add") words="--name --category-id --status --idempotency-key --dry-run"',
    );
    expect(out).toContain(
      '"pets import") words="--input-format --template --concurrency --fail-fast --skip-invalid --rejects --batch-id --shard --again --dry-run --journal --resume --retry-failed --retry-unknown --print-all --key-window --ignore-key-window"',
    );
    expect(out).toContain('compgen -W "available pending sold"');
    // Choices declared on a flag are offered without a list of their own.
    expect(out).toContain('--input-format) COMPREPLY=($(compgen -W "json ndjson csv tsv"');
    expect(out).toContain('complete -F _petstore petstore');
  });

  it('wraps the bash script for zsh and writes fish rules', async () => {
    expect((await completion('zsh')).out).toMatch(/^#compdef petstore\n/);
    expect((await completion('fish')).out).toContain(
      "complete -c petstore -n '__fish_seen_subcommand_from pets; and __fish_seen_subcommand_from list' -l status -xa 'available pending sold'",
    );
  });

  it('rejects an unknown shell with exit 2', async () => {
    const { code, err } = await completion('tcsh');
    expect(code).toBe(2);
    expect(err).toContain('unknown shell');
    expect(err).toContain('tcsh');
  });

  it.each([
    ['bash', 'petstore.bash'],
    ['zsh', '_petstore'],
    ['fish', 'petstore.fish'],
  ])(
    'the committed %s script is current (regenerate with npm run completions)',
    async (shell, file) => {
      const committed = readFileSync(
        new URL(`../../../completions/${file}`, import.meta.url),
        'utf8',
      );
      expect((await completion(shell)).out).toBe(committed);
    },
  );
});

describe('completion: flags to options (runF), and its run function', () => {
  it.each([['bash'], ['zsh'], ['fish']])('completion %s', async (shell) => {
    const options = (await optionsOf(['completion', shell])) as { shell: string; program: unknown };
    expect(options.shell).toBe(shell);
    expect(options.program).toBeDefined();
  });

  it('refuses a shell it has no script for, before the verb runs', async () => {
    const result = await runF(['completion', 'tcsh']);
    expect(result.code).toBe(2);
    expect(result.received).toEqual([]);
  });

  it('writes the script of the program it is given, and only that, to stdout', async () => {
    const program = new Command('petstore');
    program.command('pets').command('list').option('--limit <n>');
    const { ctx, io } = verbContext();
    await runCompletion(ctx, { shell: 'bash', program });
    expect(io.out()).toContain('"pets list") words="--limit"');
    expect(io.out()).not.toContain('pets add');
    expect(io.err()).toBe('');
  });
});
