import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HELP_TOPIC_NAMES } from '../../src/help/topics.js';
import { main } from '../../src/main.js';
import { fakeIO } from '../helpers/fake-io.js';
import { freshHome, runCli } from '../helpers/run-cli.js';

/** Written by the build: every command's help as the program prints it to a pipe. */
const built = JSON.parse(
  readFileSync(new URL('../../dist/help.json', import.meta.url), 'utf8'),
) as Record<string, string>;

async function liveHelp(argv: string[]): Promise<string> {
  const io = fakeIO({ tty: false });
  expect(await main(argv, io, { HOME: freshHome() })).toBe(0);
  return io.out();
}

describe('help answered from the build, without loading the program', () => {
  it('covers every command', () => {
    expect(Object.keys(built)).toEqual(
      expect.arrayContaining(['', 'pets', 'pets add', 'sandbox serve', 'auth login', 'smoke']),
    );
  });

  it.each(Object.keys(built).filter((key) => !key.startsWith('topic:')))(
    '"%s": the built text is the live one, in every form',
    async (path) => {
      const words = path ? path.split(' ') : [];
      expect(await liveHelp([...words, '--help'])).toBe(built[path]);
      expect(await liveHelp([...words, '-h'])).toBe(built[path]);
      if (words.length) expect(await liveHelp(['help', ...words])).toBe(built[path]);
    },
  );

  it.each(HELP_TOPIC_NAMES)('help %s: the built topic is the live one', async (topic) => {
    expect(built[`topic:${topic}`]).toBe(await liveHelp(['help', topic]));
    expect((await runCli(['help', topic])).stdout).toBe(built[`topic:${topic}`]);
  });

  it('the built petstore prints it for a pipe', async () => {
    const result = await runCli(['help', 'pets', 'add']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(built['pets add']);
  });
});
