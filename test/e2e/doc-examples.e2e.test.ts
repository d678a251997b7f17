import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BIN, freshHome } from '../helpers/run-cli.js';

/**
 * Every `console` example of the guides in docs/, run as written: each file's blocks in order,
 * in one shell, in a new home and folder, against the embedded sandbox. Each command must exit
 * 0, and print on stdout exactly the lines the page shows under it (when it shows any). The
 * README's quick start has a test of its own (readme-quickstart.e2e.test.ts).
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

interface Step {
  command: string;
  expected: string[];
}

function guides(): string[] {
  const folder = join(ROOT, 'docs');
  return readdirSync(folder)
    .filter((name) => name.endsWith('.md'))
    .map((name) => join(folder, name));
}

function stepsOf(text: string): Step[] {
  const steps: Step[] = [];
  for (const block of text.matchAll(/```console\n([\s\S]*?)```/g)) {
    for (const line of block[1]!.split('\n').filter((row) => row !== '')) {
      if (line.startsWith('$ ')) steps.push({ command: line.slice(2), expected: [] });
      else steps.at(-1)!.expected.push(line);
    }
  }
  return steps;
}

const files = guides()
  .map((path) => ({ path, steps: stepsOf(readFileSync(path, 'utf8')) }))
  .filter(({ steps }) => steps.length > 0);

describe('the examples of the guides, run as written', () => {
  it('there are some to run', () => {
    expect(files.length).toBeGreaterThanOrEqual(5);
  });

  it.each(files.map(({ path, steps }) => [relative(ROOT, path), steps] as const))(
    '%s',
    (_name, steps) => {
      const out = mkdtempSync(join(tmpdir(), 'doc-examples-'));
      const work = mkdtempSync(join(tmpdir(), 'doc-examples-work-'));
      const script = [
        'shopt -s expand_aliases',
        `alias petstore='${process.execPath} ${BIN}'`,
        ...steps.map(
          (step, i) =>
            `{ ${step.command}; } > ${out}/${i}.out 2> ${out}/${i}.err < /dev/null; echo $? > ${out}/${i}.code`,
        ),
      ].join('\n');
      writeFileSync(join(out, 'examples.sh'), script);
      execFileSync('bash', [join(out, 'examples.sh')], {
        cwd: work,
        env: { PATH: process.env.PATH ?? '', HOME: freshHome() },
        timeout: 90_000,
      });
      steps.forEach((step, i) => {
        const read = (suffix: string) => readFileSync(join(out, `${i}.${suffix}`), 'utf8');
        expect({
          command: step.command,
          code: read('code').trim(),
          err: read('err'),
        }).toMatchObject({ code: '0' });
        if (step.expected.length === 0) return;
        const printed = read('out').replaceAll('\r\n', '\n').split('\n').filter(Boolean);
        expect({ command: step.command, stdout: printed }).toEqual({
          command: step.command,
          stdout: step.expected,
        });
      });
    },
    120_000,
  );
});
