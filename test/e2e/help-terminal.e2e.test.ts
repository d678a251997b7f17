import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { freshHome, runCli } from '../helpers/run-cli.js';
import { petstoreLine, TerminalSession } from '../helpers/terminal.js';

const HELP_JSON = fileURLToPath(new URL('../../dist/help.json', import.meta.url));

/** What a terminal of this width shows for `petstore ARGS`, as lines without the prompt's. */
async function atTerminal(columns: number, args: string[]): Promise<string[]> {
  const session = new TerminalSession(`stty cols ${columns} rows 50; ${petstoreLine(args)}`, {
    PATH: process.env.PATH ?? '',
    HOME: freshHome(),
  });
  await session.waitFor(/EXIT=\d+/);
  session.kill();
  return session.output
    .replace(/\r/g, '')
    .split('\n')
    .filter((line) => !/^PETSTORE_PID=|^EXIT=/.test(line));
}

describe('help at a terminal', () => {
  it('of every command and topic fits an 80-column terminal: no line wider', async () => {
    const built = JSON.parse(readFileSync(HELP_JSON, 'utf8')) as Record<string, string>;
    const asked = Object.keys(built).map((key) =>
      key.startsWith('topic:')
        ? ['help', key.slice('topic:'.length)]
        : [...(key === '' ? [] : key.split(' ')), '--help'],
    );
    for (const args of asked) {
      const shown = await atTerminal(80, args);
      expect(shown.length, args.join(' ')).toBeGreaterThan(3);
      expect(
        shown.filter((line) => line.length > 80),
        args.join(' '),
      ).toEqual([]);
    }
  }, 120_000);

  it('is the piped help at any width of 80 columns or more, and is wrapped to a narrower one', async () => {
    // (Below about 66 columns commander leaves descriptions unwrapped: too narrow a column.)
    for (const args of [['--help'], ['pets', 'add', '--help']]) {
      const piped = (await runCli(args)).stdout.split('\n');
      for (const columns of [80, 132]) {
        expect(await atTerminal(columns, args), `${args.join(' ')} at ${columns}`).toEqual(piped);
      }
      const narrow = await atTerminal(72, args);
      // Commander lays out options and commands; the rest (prose, examples) is fitted too.
      expect(narrow.filter((line) => /^ {2}-/.test(line)).length).toBeGreaterThan(3);
      expect(
        narrow.filter((line) => line.length > 72),
        narrow.join('\n'),
      ).toEqual([]);
      expect(narrow).not.toEqual(piped);
    }
  });
});
