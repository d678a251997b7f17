import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { freshHome } from '../helpers/run-cli.js';
import { stderrText } from '../helpers/stderr-text.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

interface Step {
  command: string;
  /** The lines the README shows the command printing, stdout's and stderr's, as a terminal does. */
  shown: string[];
}

/** A note as a person reads it, whether written as text (`note: ...`) or as JSON. */
const plain = (line: string) => line.replace(/^note: /, '');

/** The `console` blocks of the README's "Quick start" section, as commands and their output. */
function quickStartSteps(): Step[] {
  const start = README.indexOf('\n## Quick start\n');
  const end = README.indexOf('\n## ', start + 1);
  const section = README.slice(start, end);
  const steps: Step[] = [];
  for (const block of section.matchAll(/```console\n([\s\S]*?)```/g)) {
    for (const line of block[1]!.split('\n').filter((text) => text !== '')) {
      if (line.startsWith('$ ')) steps.push({ command: line.slice(2), shown: [] });
      else steps.at(-1)!.shown.push(line);
    }
  }
  return steps;
}

describe("the README's quick start, run as written in a new home", () => {
  const steps = quickStartSteps();

  it('has the commands a newcomer runs first', () => {
    expect(steps.length).toBeGreaterThanOrEqual(5);
    expect(steps[0]!.command).toMatch(/^alias petstore=/);
  });

  it('every command exits 0 and prints exactly what the README shows', () => {
    const out = mkdtempSync(join(tmpdir(), 'quickstart-'));
    // One bash session, as a reader would type it: the alias of the first line serves the rest.
    const script = [
      'shopt -s expand_aliases',
      ...steps.map(
        (step, i) =>
          `{ ${step.command}; } > ${out}/${i}.out 2> ${out}/${i}.err; echo $? > ${out}/${i}.code`,
      ),
    ].join('\n');
    writeFileSync(join(out, 'quickstart.sh'), script);
    execFileSync('bash', [join(out, 'quickstart.sh')], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: freshHome() },
      timeout: 60_000,
    });
    steps.forEach((step, i) => {
      const read = (suffix: string) => readFileSync(join(out, `${i}.${suffix}`), 'utf8');
      expect({ command: step.command, code: read('code').trim(), err: read('err') }).toMatchObject({
        code: '0',
      });
      const printed = read('out').replaceAll('\r\n', '\n').split('\n').filter(Boolean);
      const said = stderrText(read('err')).split('\n').filter(Boolean).map(plain);
      // What the README shows is what a terminal shows: every stdout line, in order, and every
      // line on stderr; nothing more.
      const shownErr = step.shown.filter((line) => said.includes(plain(line)));
      const shownOut = step.shown.filter((line) => !said.includes(plain(line)));
      expect({ command: step.command, stdout: printed }).toEqual({
        command: step.command,
        stdout: shownOut,
      });
      expect({ command: step.command, stderr: said }).toEqual({
        command: step.command,
        stderr: shownErr.map(plain),
      });
      if (step.command.startsWith('petstore ')) {
        expect(said[0]).toBe(
          'using the local sandbox (no profile chosen: petstore profile use NAME)',
        );
      }
    });
  }, 60_000);
});
