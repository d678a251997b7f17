import { describe, expect, it } from 'vitest';
import { freshHome, runCli } from '../helpers/run-cli.js';
import { petstoreLine, TerminalSession } from '../helpers/terminal.js';

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
  it('is the piped help at any width of 80 columns or more, and is wrapped to a narrower one', async () => {
    // (Below about 66 columns commander leaves descriptions unwrapped: too narrow a column.)
    for (const args of [['--help'], ['pets', 'add', '--help']]) {
      const piped = (await runCli(args)).stdout.split('\n');
      for (const columns of [80, 132]) {
        expect(await atTerminal(columns, args), `${args.join(' ')} at ${columns}`).toEqual(piped);
      }
      const narrow = await atTerminal(72, args);
      // Commander's part (options, commands) fits; the text after it is wrapped at 78 by hand.
      const options = narrow.filter((line) => /^ {2}-/.test(line));
      expect(options.length).toBeGreaterThan(3);
      expect(
        options.every((line) => line.length <= 72),
        narrow.join('\n'),
      ).toBe(true);
      expect(narrow).not.toEqual(piped);
    }
  });
});
